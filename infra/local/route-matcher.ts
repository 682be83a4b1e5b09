import type { Method, Route } from '../routes.ts';

interface Compiled {
  route: Route;
  pattern: RegExp;
  params: string[];
}

export interface Match {
  route: Route;
  routeKey: string;
  pathParameters: Record<string, string>;
}

/**
 * Matches a request to a route row as API Gateway does: the most specific route wins (fewer
 * `{params}` first, so `/shared-link/me` beats `/shared-link/{id}`), and `$default` takes the rest.
 */
export const createRouteMatcher = (routes: readonly Route[]) => {
  const fallback = routes.find((route) => route.path === '$default');
  const compiled: Compiled[] = routes
    .filter((route) => route.path !== '$default')
    .map((route) => {
      const params: string[] = [];
      const source = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, name: string) => {
        params.push(name);
        return '([^/]+)';
      });
      return { route, pattern: new RegExp(`^${source}$`), params };
    })
    .sort((a, b) => a.params.length - b.params.length);

  return (method: string, path: string): Match | undefined => {
    for (const { route, pattern, params } of compiled) {
      if (route.method !== 'ANY' && route.method !== (method.toUpperCase() as Method)) continue;
      const found = pattern.exec(path);
      if (!found) continue;
      const pathParameters: Record<string, string> = {};
      params.forEach((name, index) => {
        const value = found[index + 1] ?? '';
        try {
          pathParameters[name] = decodeURIComponent(value);
        } catch {
          pathParameters[name] = value;
        }
      });
      return { route, routeKey: `${route.method} ${route.path}`, pathParameters };
    }
    return fallback ? { route: fallback, routeKey: '$default', pathParameters: {} } : undefined;
  };
};
