// Preloaded into the CLI by the cold-load test: on SIGUSR2 the process writes one line to stderr listing the CommonJS
// modules it has loaded (prom-client is one, when loaded).
process.on('SIGUSR2', () => process.stderr.write(`LOADED ${JSON.stringify(Object.keys(require.cache))}\n`));
