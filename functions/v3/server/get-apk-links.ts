import { serverVersionV3 } from '#shared/dto/v3/server.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';

// The Android builds of the version this server speaks, on Immich's releases page (Immich's links).
export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'server.apkLinks',
    returns: returns<{ arm64v8a: string; armeabiv7a: string; universal: string; x86_64: string }>(),
  },
  () => {
    const { major, minor, patch } = serverVersionV3;
    const base = `https://github.com/immich-app/immich/releases/download/v${major}.${minor}.${patch}`;
    return {
      arm64v8a: `${base}/app-arm64-v8a-release.apk`,
      armeabiv7a: `${base}/app-armeabi-v7a-release.apk`,
      universal: `${base}/app-release.apk`,
      x86_64: `${base}/app-x86_64-release.apk`,
    };
  },
);
