import * as v1 from '@immich/sdk';
import * as v3 from '@immich/sdk-v3';
import { describe, expect, it } from 'vitest';
import { useServer } from '../support/server.ts';

/** What today's clients (the 3.x mobile app, @immich/cli 3.x, the v3 web app) ask before anyone signs in. */
describe('the local server, through @immich/sdk 3.2.2: the public /server calls', () => {
  const server = useServer();

  it('answers ping and version 3.2.2 at v3 paths, while v1.100 keeps its 1.100.0', async () => {
    const opts = { baseUrl: server.baseUrl };
    expect(await v3.pingServer(opts)).toEqual({ res: 'pong' });
    expect(await v3.getServerVersion(opts)).toEqual({ major: 3, minor: 2, patch: 2, prerelease: null });
    expect(await v1.getServerVersion(opts)).toEqual({ major: 1, minor: 100, patch: 0 });
  });

  it('answers features and config in v3 shape from the same configuration as v1.100', async () => {
    const opts = { baseUrl: server.baseUrl };
    const [features, featuresV1] = await Promise.all([v3.getServerFeatures(opts), v1.getServerFeatures(opts)]);
    expect(Object.keys(features).sort()).toEqual([
      'configFile',
      'duplicateDetection',
      'email',
      'facialRecognition',
      'importFaces',
      'map',
      'oauth',
      'oauthAutoLaunch',
      'ocr',
      'passwordLogin',
      'realtimeTranscoding',
      'reverseGeocoding',
      'search',
      'sidecar',
      'smartSearch',
      'trash',
    ]);
    expect(features).toMatchObject({ passwordLogin: featuresV1.passwordLogin, trash: featuresV1.trash, smartSearch: false, search: true });
    const [config, configV1] = await Promise.all([v3.getServerConfig(opts), v1.getServerConfig(opts)]);
    expect(config).toEqual({
      ...configV1,
      maintenanceMode: false,
      // v3's map styles, the configuration's defaults.
      mapDarkStyleUrl: 'https://tiles.immich.cloud/v1/style/dark.json',
      mapLightStyleUrl: 'https://tiles.immich.cloud/v1/style/light.json',
      minFaces: 3,
      oauthAccountManagementUrl: '',
      publicUsers: true,
    });
  });

  it('lists the same media types on both generations', async () => {
    const opts = { baseUrl: server.baseUrl };
    expect(await v3.getSupportedMediaTypes(opts)).toEqual(await v1.getSupportedMediaTypes(opts));
  });
});
