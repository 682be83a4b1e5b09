import { downloadArchive, getDownloadInfo } from '@immich/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { turnOffMlTasks } from '../support/ml-tasks.ts';
import { makeJpeg } from '../support/photos.ts';
import { adminWithApiKey, type SdkUser, sdkUpload } from '../support/sdk.ts';
import { useServer } from '../support/server.ts';
import { readZip } from '../support/zip.ts';

// The web app's "download" of a selection: the info, then each archive (deployed: streamed into
// S3 by a multipart upload and fetched through the 302 to a short-lived URL).
describe('downloads through @immich/sdk 1.100.0', () => {
  const server = useServer();
  let user: SdkUser;

  beforeAll(async () => {
    user = await adminWithApiKey(server.baseUrl, 'downloads@immich.cloud');
    // Not about OCR or duplicates or faces: off, as each photo's cost (test/support/ml-tasks.ts).
    await turnOffMlTasks(user, ['facialRecognition', 'ocr', 'duplicateDetection']);
  });

  it('getDownloadInfo, then downloadArchive: a zip of the originals', async () => {
    const files = [makeJpeg({ comment: 'zip one', width: 40, height: 30 }), makeJpeg({ comment: 'zip two', width: 30, height: 40 })];
    const ids = [await sdkUpload(user, files[0] as Buffer, 'one.jpg'), await sdkUpload(user, files[1] as Buffer, 'two.jpg')];
    const info = await getDownloadInfo({ downloadInfoDto: { assetIds: ids } }, user);
    expect(info.archives).toEqual([{ size: (files[0]?.length ?? 0) + (files[1]?.length ?? 0), assetIds: ids }]);
    const blob = await downloadArchive({ assetIdsDto: { assetIds: info.archives[0]?.assetIds ?? [] } }, user);
    const entries = readZip(Buffer.from(await blob.arrayBuffer()));
    expect(entries.map((entry) => entry.name)).toEqual(['one.jpg', 'two.jpg']);
    expect(entries.map((entry) => Buffer.compare(entry.data, files[entries.indexOf(entry)] as Buffer))).toEqual([0, 0]);
  });

  it('an archive larger than one part (8 MB) goes up as a multipart upload deployed, and comes back whole', async () => {
    const files = [0, 1, 2].map((index) => makeJpeg({ noise: true, width: 1300, height: 1300, comment: `large ${index}` }));
    expect(files.every((file) => file.length > 3_000_000 && file.length < server.uploadLimitBytes)).toBe(true);
    const ids = [];
    for (const [index, file] of files.entries()) ids.push(await sdkUpload(user, file, `large${index}.jpg`));
    const blob = await downloadArchive({ assetIdsDto: { assetIds: ids } }, user);
    const entries = readZip(Buffer.from(await blob.arrayBuffer()));
    expect(entries.map((entry, index) => Buffer.compare(entry.data, files[index] as Buffer))).toEqual([0, 0, 0]);
  });
});
