import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { routes } from '#infra/routes.ts';
import { mapServerFeaturesV3 } from '#shared/dto/v3/server.ts';
import { mlFeatures } from '#shared/ml/ml.ts';
import { defaultConfig } from '#shared/services/config.reader.ts';

/**
 * docs/immich-compatibility.md, "The v3 web app's calls": the functions of @immich/sdk Immich's
 * v3 web app calls, as served, off in the features, or not served yet. These check each list
 * against the route table, and that no route answers a feature the server says is off.
 */
const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'immich-compatibility.md'), 'utf8');
const section = doc.slice(doc.indexOf("### The v3 web app's calls"), doc.indexOf('\n### ', doc.indexOf("### The v3 web app's calls") + 5));
/** The bullet that starts with `label`, as its backticked names (and `feature: names` groups). */
const bullet = (label: string): string => {
  const start = section.indexOf(`- **${label}`);
  const end = section.indexOf('\n- **', start + 1);
  return section.slice(start, end < 0 ? undefined : end);
};
const names = (text: string): string[] => [...text.matchAll(/`(\w+)`/g)].map((match) => match[1] ?? '');

/** v3's operations served: the v3 rows, and the v1.100 rows whose path v3 kept. */
const servedV3 = new Set(routes.flatMap((route) => (route.generation === 'v3' ? [route.operationId] : route.v3 ? [route.v3] : [])));

describe("docs/immich-compatibility.md, the v3 web app's calls", () => {
  const served = names(bullet('Served'));
  const offText = bullet('Off in `/server/features`');
  // Calls not served yet, once there were some; none is left.
  const notYet = section.includes('- **Not served yet') ? names(bullet('Not served yet')) : [];
  /** `feature`: names; … → feature → names. */
  const offByFeature = new Map(
    offText
      .slice(offText.indexOf(':', offText.indexOf('(')) + 1)
      .split(';')
      .map((group) => {
        const [feature = '', ...rest] = names(group);
        return [feature, rest] as const;
      }),
  );
  const off = [...offByFeature.values()].flat();

  it('lists each of the 187 calls once', () => {
    const all = [...served, ...off, ...notYet];
    expect(all).toHaveLength(187);
    expect(new Set(all).size).toBe(187);
    // Each list states its own size.
    expect(bullet('Served')).toContain(`(${served.length})`);
    if (notYet.length > 0) expect(bullet('Not served yet')).toContain(`(${notYet.length};`);
  });

  it('says served exactly of what the route table serves', () => {
    expect(served.filter((name) => !servedV3.has(name))).toEqual([]);
    expect([...off, ...notYet].filter((name) => servedV3.has(name))).toEqual([]);
  });

  it('serves no route of a feature the server reports off, and reports off each feature it lists so', async () => {
    const config = defaultConfig();
    const features = mapServerFeaturesV3(config, await mlFeatures(config.machineLearning)) as unknown as Record<string, boolean>;
    expect([...offByFeature.keys()]).toEqual(['email']);
    // The map and reverse geocoding are on by default, as in Immich, and their calls are served (docs/places.md).
    expect([features.map, features.reverseGeocoding]).toEqual([true, true]);
    for (const name of ['getMapMarkers', 'getAlbumMapMarkers', 'searchPlaces', 'getAssetsByCity'])
      expect(servedV3.has(name), name).toBe(true);
    for (const [feature, operations] of offByFeature) {
      expect(features[feature], feature).toBe(false);
      expect(
        operations.filter((name) => servedV3.has(name)),
        feature,
      ).toEqual([]);
    }
  });
});
