export type QueryValues = Record<string, string | string[]>;

/**
 * Reads the raw query string the way Immich's Express `qs` parser does for flat keys: a key seen
 * once is a string, a repeated key is an array, and `key[]=` forces an array. API Gateway's own
 * `queryStringParameters` joins repeated values with commas, which would corrupt values that
 * contain one, so the raw string is the source.
 */
export const parseQuery = (raw: string | undefined): QueryValues => {
  const values: QueryValues = {};
  if (!raw) return values;
  for (const [rawKey, value] of new URLSearchParams(raw)) {
    const isArray = rawKey.endsWith('[]');
    const key = isArray ? rawKey.slice(0, -2) : rawKey;
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') continue;
    const previous = values[key];
    if (previous === undefined) values[key] = isArray ? [value] : value;
    else values[key] = Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return values;
};
