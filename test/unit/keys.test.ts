import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as keys from '#shared/db/item-keys.ts';
import { assetIdOfPk, type Key, type Partition } from '#shared/db/keys.ts';
import * as partitions from '#shared/db/partitions.ts';

const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'data-model.md'), 'utf8');

/** The entity chart of docs/data-model.md: entity name → the pk and sk it documents. */
const documented = (): Map<string, Key> => {
  const section = doc.slice(doc.indexOf('## Entities'), doc.indexOf('## Partitions'));
  const rows = new Map<string, Key>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const [, entity, pk, sk] = cells;
    if (!entity || !pk?.startsWith('`') || !sk?.startsWith('`')) continue;
    rows.set(entity, { pk: pk.replaceAll('`', ''), sk: sk.replaceAll('`', '') });
  }
  return rows;
};

// Every key builder, called with the placeholders the document uses.
const built: Record<string, Key> = {
  user: keys.user('<userId>'),
  pinGuard: keys.pinGuard('<userId>'),
  emailGuard: keys.email('<email>'),
  storageLabelGuard: keys.storageLabel('<label>'),
  oauthGuard: keys.oauth('<oauthId>'),
  adminGuard: keys.admin(),
  session: keys.session('<tokenHash>'),
  userSession: keys.userSession('<userId>', '<tokenHash>'),
  apiKey: keys.apiKey('<keyHash>'),
  userApiKey: keys.userApiKey('<userId>', '<apiKeyId>'),
  config: keys.config(),
  systemMetadata: keys.adminOnboarding(),
  asset: keys.asset('<assetId>'),
  face: keys.assetFace('<assetId>', '<faceId>'),
  assetEdits: keys.assetEdits('<assetId>'),
  assetMetadata: keys.assetMetadata('<assetId>', '<key>'),
  assetOcr: keys.assetOcr('<assetId>'),
  ocrTerm: keys.ocrTerm('<ownerId>', '<token>', '<assetId>'),
  checksum: keys.checksum('<ownerId>', '<sha1Hex>'),
  deviceAsset: keys.deviceAsset('<ownerId>', '<deviceId>', '<assetId>'),
  trashEntry: keys.trashEntry('<ownerId>', '<deletedAt>', '<assetId>'),
  person: keys.person('<ownerId>', '<personId>'),
  personName: keys.personName('<ownerId>', '<nameHash>'),
  album: keys.album('<ownerId>', '<albumId>'),
  albumUser: keys.albumUser('<albumId>', '<userId>'),
  albumAsset: keys.albumAsset('<albumId>', '<assetId>'),
  albumSummary: keys.albumSummary('<albumId>'),
  albumSyncMark: keys.albumSyncMark('<userId>'),
  sharedLink: keys.sharedLink('<ownerId>', '<linkId>'),
  sharedLinkKey: keys.sharedLinkKey('<keyHash>'),
  sharedLinkSlug: keys.sharedLinkSlug('<slug>'),
  sharedLinkAsset: keys.sharedLinkAsset('<linkId>', '<assetId>'),
  term: keys.term('<ownerId>', '<word>', '<fileCreatedAt>', '<assetId>'),
  timeBuckets: keys.timeBuckets('<ownerId>', '<YYYY-MM>'),
  partner: keys.partner('<sharedWithId>', '<sharedById>'),
  audit: keys.audit('<ownerId>', '<entityType>', '<createdAt>', '<entityId>'),
  uploadSession: keys.uploadSession('<sessionId>'),
  connection: keys.connection('<connectionId>'),
  deletion: keys.deletion('<scope>', '<deleteId>'),
  activity: keys.activity('<activityId>'),
  activityLike: keys.activityLike('<albumId>', '<target>', '<userId>'),
  syncCheckpoint: keys.syncCheckpoint('<tokenHash>', '<type>'),
  tag: keys.tag('<ownerId>', '<tagId>'),
  tagValue: keys.tagValue('<ownerId>', '<valueHash>'),
  tagAsset: keys.tagAsset('<tagId>', '<assetId>'),
  memory: keys.memory('<ownerId>', '<memoryId>'),
  memoryAsset: keys.memoryAsset('<memoryId>', '<assetId>'),
  stack: keys.stack('<ownerId>', '<stackId>'),
  workflow: keys.workflow('<ownerId>', '<workflowId>'),
  notification: keys.notification('<userId>', '<notificationId>'),
  queueSlot: keys.queueSlot('<queue>', '<slotStart>', '<shard>' as unknown as number),
  queueState: keys.queueState('<queue>'),
  memoriesState: keys.memoriesState(),
  nightlyTasks: keys.nightlyTasks(),
  deployment: keys.deployment(),
  migrations: keys.migrations(),
  serverLicense: keys.serverLicense(),
  faceIndexHead: keys.faceIndexHead('<ownerId>'),
  // The number is zero-padded to 12 digits (so the keys sort as the numbers do); the document names it `<seq>`.
  faceIndexEntry: {
    ...keys.faceIndexEntry('<ownerId>', 42),
    sk: keys.faceIndexEntry('<ownerId>', 42).sk === '000000000042' ? '<seq>' : 'not padded',
  },
  duplicateGroup: keys.duplicateGroup('<ownerId>', '<duplicateId>'),
  duplicateMember: keys.duplicateMember('<ownerId>', '<duplicateId>', '<assetId>'),
  vectorIndexHead: keys.vectorIndexHead('<ownerId>', '<kind>', '<model>'),
  vectorIndexEntry: {
    ...keys.vectorIndexEntry('<ownerId>', '<kind>', '<model>', 42),
    sk: keys.vectorIndexEntry('<ownerId>', '<kind>', '<model>', 42).sk === '000000000042' ? '<seq>' : 'not padded',
  },
};

describe('docs/data-model.md', () => {
  it('documents exactly the key shapes shared/db/item-keys.ts builds', () => {
    expect(Object.fromEntries(documented())).toEqual(built);
  });

  it('has a builder for every key function', () => {
    expect(Object.keys(keys).length).toBe(Object.keys(built).length);
  });

  it('reads an asset id back from the key shared/db/item-keys.ts builds', () => {
    expect(assetIdOfPk(keys.asset('abc-123').pk)).toBe('abc-123');
  });
});

/** The Partitions chart of docs/data-model.md: name → index, partition key and sort-key prefix. */
const documentedPartitions = (): Map<string, Partition> => {
  const section = doc.slice(doc.indexOf('## Partitions'), doc.indexOf('## Search'));
  const rows = new Map<string, Partition>();
  for (const line of section.split('\n')) {
    const [, name, index, pk, sk] = line.split('|').map((cell) => cell.trim());
    if (!name || !pk?.startsWith('`')) continue;
    const prefix = /^begins with `(.+)`$/.exec(sk ?? '')?.[1];
    rows.set(name, {
      ...(index === 'table' ? {} : { index: (index ?? '').replaceAll('`', '') as Partition['index'] }),
      value: pk.replaceAll('`', ''),
      ...(prefix ? { prefix } : {}),
    });
  }
  return rows;
};

const builtPartitions: Record<string, Partition> = {
  userSessions: partitions.userSessions('<userId>'),
  userApiKeys: partitions.userApiKeys('<userId>'),
  userPeople: partitions.userPeople('<userId>'),
  userAlbums: partitions.userAlbums('<userId>'),
  userSharedLinks: partitions.userSharedLinks('<userId>'),
  users: partitions.users(),
  connections: partitions.connections(),
  userConnections: partitions.userConnections('<userId>'),
  asset: partitions.asset('<assetId>'),
  assetMetadata: partitions.assetMetadata('<assetId>'),
  ocrTerm: partitions.ocrTerm('<ownerId>', '<token>'),
  deviceAssets: partitions.deviceAssets('<ownerId>', '<deviceId>'),
  albumAssets: partitions.albumAssets('<albumId>'),
  sharedLinkAssets: partitions.sharedLinkAssets('<linkId>'),
  term: partitions.term('<ownerId>', '<word>'),
  timeline: partitions.timeline('<ownerId>'),
  timeBuckets: partitions.timeBuckets('<ownerId>'),
  trash: partitions.trash('<ownerId>'),
  audit: partitions.audit('<ownerId>', '<entityType>'),
  assetsByUpdate: partitions.assetsByUpdate('<ownerId>'),
  personFaces: partitions.personFaces('<personId>'),
  partnersSharingWith: partitions.partnersSharingWith('<userId>'),
  partnersSharedBy: partitions.partnersSharedBy('<userId>'),
  albumsSharedWith: partitions.albumsSharedWith('<userId>'),
  assetAlbums: partitions.assetAlbums('<assetId>'),
  assetLinks: partitions.assetLinks('<assetId>'),
  deletions: partitions.deletions('<scope>'),
  albumActivities: partitions.albumActivities('<albumId>'),
  assetActivities: partitions.assetActivities('<assetId>'),
  syncCheckpoints: partitions.syncCheckpoints('<tokenHash>'),
  changes: partitions.changes('<scope>'),
  face: partitions.face('<faceId>'),
  userTags: partitions.userTags('<userId>'),
  tagAssets: partitions.tagAssets('<tagId>'),
  assetTags: partitions.assetTags('<assetId>'),
  userMemories: partitions.userMemories('<userId>'),
  userStacks: partitions.userStacks('<userId>'),
  userWorkflows: partitions.userWorkflows('<userId>'),
  userNotifications: partitions.userNotifications('<userId>'),
  queueSlots: partitions.queueSlots('<queue>'),
  memoryAssets: partitions.memoryAssets('<memoryId>'),
  assetMemories: partitions.assetMemories('<assetId>'),
  geo: partitions.geo('<ownerId>'),
  folder: partitions.folder('<ownerId>'),
  faceIndex: partitions.faceIndex('<ownerId>'),
  vectorIndex: partitions.vectorIndex('<ownerId>', '<kind>', '<model>'),
  duplicates: partitions.duplicates('<ownerId>'),
  duplicateGroup: partitions.duplicateGroup('<ownerId>', '<duplicateId>'),
  exif: { ...partitions.exif('make', '<ownerId>', '<value>'), index: '<field>' as Partition['index'] },
};

describe('docs/data-model.md, partitions', () => {
  it('documents exactly the partitions shared/db/partitions.ts builds', () => {
    expect(Object.fromEntries(documentedPartitions())).toEqual(builtPartitions);
    expect(Object.keys(partitions).length).toBe(Object.keys(builtPartitions).length);
  });

  it('gives every EXIF field its own index, named as the field', () => {
    for (const field of ['make', 'model', 'lensModel', 'city', 'state', 'country'] as const) {
      expect(partitions.exif(field, 'o', 'v')).toEqual({ index: field, value: 'o#v' });
    }
  });
});

describe('docs/data-model.md, access patterns', () => {
  const section = doc.slice(doc.indexOf('## Access patterns'), doc.indexOf('## Timeline counters'));
  const rows = section.split('\n').filter((line) => /^\| \d+ \|/.test(line));

  it('names for every pattern the repository functions that run it, each exported by the repository its namespace names', async () => {
    const dbDir = join(import.meta.dirname, '..', '..', 'shared', 'db');
    // `album.repository.ts` is imported as `albumRepo` (docs/architecture.md, "Names and rooms").
    const repositories = new Map<string, Record<string, unknown>>();
    for (const file of readdirSync(dbDir).filter((name) => name.endsWith('.repository.ts'))) {
      const namespace = `${file.replace('.repository.ts', '').replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase())}Repo`;
      repositories.set(namespace, await import(join(dbDir, file)));
    }
    expect(rows.length).toBeGreaterThan(50);
    for (const row of rows) {
      const named = [...(row.split('|').at(-2) ?? '').matchAll(/`(\w+)\.(\w+)`/g)].map(([, namespace = '', fn = '']) => ({
        namespace,
        fn,
      }));
      expect(named.length, row.slice(0, 40)).toBeGreaterThan(0);
      expect(
        named
          .filter(({ namespace, fn }) => repositories.get(namespace)?.[fn] === undefined)
          .map(({ namespace, fn }) => `${namespace}.${fn}`),
        row.slice(0, 40),
      ).toEqual([]);
    }
  });
});
