/**
 * Preloaded (`node -r`) into the gateway when the harness runs with `--profile`: SIGUSR2 exits
 * normally, so `--cpu-prof` writes its profile (a death by SIGTERM writes none).
 */
process.on('SIGUSR2', () => process.exit(0));
