export {
  type FleetEvent,
  FleetHealth,
  type FleetHealthDeps,
  type FleetState,
  type FleetStats,
  type FleetTimings,
} from './fleet-health.js';
