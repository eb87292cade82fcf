export { withPartialOutput } from '../shared/with-partial-output.js';
