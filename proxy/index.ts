/**
 * The proxy for embedding (`import { createApp, parseConfig } from 'doclens/proxy'`): mount the app
 * in an Express app, give its `listener` to `http.createServer`, or start it alone with `startProxy`.
 */
export { createApp, type ProxyApp, type ProxyOptions } from './app.ts';
export { ConfigError, parseConfig, type ProxyConfig, type ProxyConfigInput } from './config.ts';
export { createLogger, type Logger, type LogLevel } from './http/log.ts';
export { startProxy, type RunningProxy } from './server.ts';
