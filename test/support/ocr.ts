import { afterAll, beforeAll, expect } from 'vitest';
import { login, signUpAdmin } from './accounts.ts';
import { addPhoto } from './library.ts';
import { changeConfig, objectCreated } from './media.ts';
import { type MlService, type StandInOcrLine, startMlService } from './ml-service.ts';
import { tableItems } from './table-items.ts';

/**
 * A line the Immich ML stand-in answers: `text` in a box `width` wide and `height` high from
 * (`x`, `y`), corners clockwise from the top left, 0–1 of the image.
 */
export const standInLine = (
  text: string,
  { x = 0.1, y = 0.1, width = 0.3, height = 0.05, boxScore = 0.95, textScore = 0.97 } = {},
): StandInOcrLine => ({
  text,
  box: [x, y, x + width, y, x + width, y + height, x, y + height],
  boxScore,
  textScore,
});

/** Where an asset's original is stored (the key of its bucket event). */
export const originalPathOf = async (assetId: string): Promise<string> =>
  String((await tableItems('asset')).find((item) => item.id === assetId)?.originalPath);

/**
 * The OCR handler tests' setup: the admin signed up, and the Immich ML stand-in as the ML service
 * (faces off: they are not what is tested). `processedPhoto` uploads a photo and runs the media
 * function on its bucket event as the upload's object-created event does (previews, then OCR on
 * the preview), the stand-in answering `lines`.
 */
export const useOcrStandIn = (): {
  readonly ml: MlService;
  readonly adminToken: string;
  processedPhoto(token: string, lines: StandInOcrLine[], color: [number, number, number]): Promise<string>;
} => {
  let ml: MlService | undefined;
  let adminToken = '';
  beforeAll(async () => {
    ml = await startMlService();
    await signUpAdmin();
    adminToken = (await login({ email: 'admin@immich.cloud', password: 'password' })).accessToken;
    await changeConfig(adminToken, (config) => ({
      ...config,
      machineLearning: {
        ...config.machineLearning,
        urls: [ml?.url],
        facialRecognition: { ...config.machineLearning.facialRecognition, enabled: false },
      },
    }));
  });
  afterAll(async () => {
    await ml?.close();
  });
  const service = (): MlService => {
    if (!ml) throw new Error('the ML stand-in starts in beforeAll');
    return ml;
  };
  return {
    get ml() {
      return service();
    },
    get adminToken() {
      return adminToken;
    },
    processedPhoto: async (token, lines, color) => {
      service().setOcr(lines);
      const id = await addPhoto(token, { color });
      const key = await originalPathOf(id);
      expect(await objectCreated(key)).toEqual({ outcomes: { [key]: 'made' } });
      return id;
    },
  };
};
