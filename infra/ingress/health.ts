import { statfs } from 'node:fs/promises';
import { log, metricsNamespace } from '#shared/core/log.ts';

/** Below this share of its disk free, the ingress calls itself unhealthy (its logs and temporary files need room). */
const minDiskFreePercent = 5;

export interface Health {
  healthy: boolean;
  diskFreePercent: number;
  rssBytes: number;
  heapUsedBytes: number;
}

/** The process's health: its disk's free share (`statfs` of `path`) and its memory. */
export const healthOf = async (path: string): Promise<Health> => {
  const disk = await statfs(path);
  const diskFreePercent = disk.blocks > 0 ? Math.round((disk.bavail / disk.blocks) * 10_000) / 100 : 0;
  const memory = process.memoryUsage();
  return { healthy: diskFreePercent >= minDiskFreePercent, diskFreePercent, rssBytes: memory.rss, heapUsedBytes: memory.heapUsed };
};

/**
 * One heartbeat line when healthy, in CloudWatch's embedded metric format under the functions'
 * namespace (shared/core/log.ts): `IngressHeartbeat` (the stack alarms when it is missing) and
 * `IngressDiskFreePercent` (alarmed when low). An unhealthy ingress sends none, so the same alarm fires.
 */
export const heartbeat = async (path: string): Promise<Health> => {
  const health = await healthOf(path);
  if (!health.healthy) {
    log.warn('ingress unhealthy', { ...health });
    return health;
  }
  log.info('ingress heartbeat', {
    IngressHeartbeat: 1,
    IngressDiskFreePercent: health.diskFreePercent,
    rssBytes: health.rssBytes,
    heapUsedBytes: health.heapUsedBytes,
    _aws: {
      Timestamp: Date.now(),
      CloudWatchMetrics: [
        {
          Namespace: metricsNamespace,
          Dimensions: [[]],
          Metrics: [
            { Name: 'IngressHeartbeat', Unit: 'Count' },
            { Name: 'IngressDiskFreePercent', Unit: 'Percent' },
          ],
        },
      ],
    },
  });
  return health;
};

/** Every five minutes (the alarm looks for one in fifteen); stopped by the returned function. */
export const startHeartbeat = (path: string, everyMs = 5 * 60_000): (() => void) => {
  const beat = (): void => {
    heartbeat(path).catch((error: unknown) => log.error('ingress heartbeat failed', { error: String(error) }));
  };
  beat();
  const timer = setInterval(beat, everyMs);
  timer.unref();
  return () => clearInterval(timer);
};
