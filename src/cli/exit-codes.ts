/** Exit code of a run that did what was asked. */
export const EXIT_OK = 0;
/**
 * Exit code of a run that failed at run time: every provider of the route failed (tts, stt,
 * chat, demo), `doctor` found a route with no healthy provider, a benchmark failed.
 */
export const EXIT_FAILURE = 1;
/** Exit code of a usage error: an unknown command or option, a missing or bad argument. */
export const EXIT_USAGE = 2;
/** Exit code of a config that is missing, unreadable or invalid (a ConfigError). */
export const EXIT_CONFIG = 3;
/** Exit code of an input or output file that cannot be read or written, or is not a WAV file. */
export const EXIT_IO = 4;
/** Exit code of a command this installation cannot run (`bench` outside a repository checkout). */
export const EXIT_UNAVAILABLE = 5;
