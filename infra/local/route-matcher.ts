import type { RoutedMethod } from '../routes.ts';

/**
 * What a matcher needs of a route: its method and its path (API Gateway syntax, or `$default`),
 * and whether a GET answers HEAD too (a second route key deployed: `Route.head`).
 */
export interface Routable {
  method: RoutedMethod;
  path: string;
  head?: true;
}

interface Compiled<R> {
  route: R;
  pattern: RegExp;
  params: string[];
  greedy: boolean;
  /** How much of the path is literal (`/share/{key+}`: 7), so `/share/{key+}` beats `/{proxy+}`. */
  literal: number;
}

export interface Match<R extends Routable> {
  route: R;
  routeKey: string;
  pathParameters: Record<string, string>;
}

/**
 * Matches a request to a route as API Gateway does: the most specific route wins (fewer
 * `{params}` first, so `/shared-link/me` beats `/shared-link/{id}`; a greedy `{proxy+}` last; then
 * the longer literal path, so `GET /share/{key+}` beats `ANY /{proxy+}`; then a method before
 * `ANY`), and `$default` takes the rest.
 */
export const createRouteMatcher = <R extends Routable>(routes: readonly R[]) => {
  const fallback = routes.find((route) => route.path === '$default');
  const compiled: Compiled<R>[] = routes
    .filter((route) => route.path !== '$default')
    .map((route) => {
      const params: string[] = [];
      let greedy = false;
      const source = route.path.replace(/[.*?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)(\+?)\}/g, (_m, name: string, plus: string) => {
        params.push(name);
        greedy ||= plus === '+';
        return plus ? '(.+)' : '([^/]+)';
      });
      const literal = route.path.replace(/\{\w+\+?\}/g, '').length;
      return { route, pattern: new RegExp(`^${source}$`), params, greedy, literal };
    })
    .sort(
      (a, b) =>
        Number(a.greedy) - Number(b.greedy) ||
        a.params.length - b.params.length ||
        b.literal - a.literal ||
        Number(a.route.method === 'ANY') - Number(b.route.method === 'ANY'),
    );

  return (method: string, path: string): Match<R> | undefined => {
    const wanted = method.toUpperCase();
    for (const { route, pattern, params } of compiled) {
      const asHead = wanted === 'HEAD' && route.method === 'GET' && route.head === true;
      if (route.method !== 'ANY' && route.method !== wanted && !asHead) continue;
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
      return { route, routeKey: `${asHead ? 'HEAD' : route.method} ${route.path}`, pathParameters };
    }
    return fallback ? { route: fallback, routeKey: '$default', pathParameters: {} } : undefined;
  };
};
