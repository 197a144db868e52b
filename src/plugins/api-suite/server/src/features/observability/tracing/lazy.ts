import { createRequire } from 'node:module';

const load = createRequire(__filename);

/**
 * A package required when first needed rather than at boot (the OpenTelemetry SDK, loaded only
 * when tracing is configured), resolved from this plugin's own place; typed by the caller with
 * the package's `import type`.
 */
export function loadLazily<T>(name: string): T {
  return load(name) as T;
}
