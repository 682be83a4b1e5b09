/**
 * The mobile app's local database as its sync fills it (Immich 3.x, mobile/lib/infrastructure:
 * entities/*.entity.dart and repositories/sync_stream.repository.dart): one table per entity, with
 * the app's foreign keys enforced as SQLite enforces them (`PRAGMA foreign_keys = ON`). A row whose
 * reference is not there yet fails its whole run, as the app's batch fails; deleting a row cascades
 * or sets null as the app's schema says. So a stream that sends an album's asset before the asset,
 * or a user's deletion while their albums stay, breaks here as it breaks on a phone.
 */

export class ForeignKeyError extends Error {}

type Row = Record<string, any>;

interface Reference {
  column: string;
  table: TableName;
  /** What deleting the referenced row does to this one (the app's `onDelete`). */
  onDelete: 'cascade' | 'setNull';
}

export type TableName =
  | 'authUsers'
  | 'users'
  | 'partners'
  | 'assets'
  | 'exifs'
  | 'assetEdits'
  | 'cloudIds'
  | 'albums'
  | 'albumUsers'
  | 'albumAssets'
  | 'memories'
  | 'memoryAssets'
  | 'stacks'
  | 'people'
  | 'faces'
  | 'userMetadata'
  | 'ocr';

const tables: Record<TableName, { key: string[]; references: Reference[] }> = {
  authUsers: { key: ['id'], references: [] },
  users: { key: ['id'], references: [] },
  partners: {
    key: ['sharedById', 'sharedWithId'],
    references: [
      { column: 'sharedById', table: 'users', onDelete: 'cascade' },
      { column: 'sharedWithId', table: 'users', onDelete: 'cascade' },
    ],
  },
  assets: { key: ['id'], references: [{ column: 'ownerId', table: 'users', onDelete: 'cascade' }] },
  exifs: { key: ['assetId'], references: [{ column: 'assetId', table: 'assets', onDelete: 'cascade' }] },
  assetEdits: { key: ['id'], references: [{ column: 'assetId', table: 'assets', onDelete: 'cascade' }] },
  /** remote_asset_cloud_id: the `mobile-app` asset metadata (iOS cloud ids). */
  cloudIds: { key: ['assetId'], references: [{ column: 'assetId', table: 'assets', onDelete: 'cascade' }] },
  albums: { key: ['id'], references: [{ column: 'thumbnailAssetId', table: 'assets', onDelete: 'setNull' }] },
  albumUsers: {
    key: ['albumId', 'userId'],
    references: [
      { column: 'albumId', table: 'albums', onDelete: 'cascade' },
      { column: 'userId', table: 'users', onDelete: 'cascade' },
    ],
  },
  albumAssets: {
    key: ['albumId', 'assetId'],
    references: [
      { column: 'assetId', table: 'assets', onDelete: 'cascade' },
      { column: 'albumId', table: 'albums', onDelete: 'cascade' },
    ],
  },
  memories: { key: ['id'], references: [{ column: 'ownerId', table: 'users', onDelete: 'cascade' }] },
  memoryAssets: {
    key: ['memoryId', 'assetId'],
    references: [
      { column: 'assetId', table: 'assets', onDelete: 'cascade' },
      { column: 'memoryId', table: 'memories', onDelete: 'cascade' },
    ],
  },
  stacks: { key: ['id'], references: [{ column: 'ownerId', table: 'users', onDelete: 'cascade' }] },
  people: { key: ['id'], references: [{ column: 'ownerId', table: 'users', onDelete: 'cascade' }] },
  faces: {
    key: ['id'],
    references: [
      { column: 'assetId', table: 'assets', onDelete: 'cascade' },
      { column: 'personId', table: 'people', onDelete: 'setNull' },
    ],
  },
  userMetadata: { key: ['userId', 'key'], references: [{ column: 'userId', table: 'users', onDelete: 'cascade' }] },
  ocr: { key: ['id'], references: [{ column: 'assetId', table: 'assets', onDelete: 'cascade' }] },
};
export const tableNames = Object.keys(tables) as TableName[];

const keyOf = (table: TableName, row: Row): string => tables[table].key.map((column) => String(row[column])).join('|');

export class AppStore {
  private data = new Map<TableName, Map<string, Row>>(tableNames.map((name) => [name, new Map()]));

  table(name: TableName): Map<string, Row> {
    const rows = this.data.get(name);
    if (!rows) throw new Error(`no table ${name}`);
    return rows;
  }

  /** Insert or update (the app's `insert … onConflict: DoUpdate`), checking the row's references. */
  upsert(table: TableName, row: Row): void {
    for (const reference of tables[table].references) {
      const value = row[reference.column];
      if (value === null || value === undefined) continue;
      if (!this.table(reference.table).has(String(value)))
        throw new ForeignKeyError(`FOREIGN KEY constraint failed: ${table}.${reference.column} = ${value} is not in ${reference.table}`);
    }
    const key = keyOf(table, row);
    this.table(table).set(key, { ...this.table(table).get(key), ...row });
  }

  /** Deletes the row with that key (if any) and what the app's schema deletes or nulls with it. */
  delete(table: TableName, key: string): void {
    const row = this.table(table).get(key);
    if (!row) return;
    this.table(table).delete(key);
    const id = keyOf(table, row);
    for (const other of tableNames) {
      for (const reference of tables[other].references) {
        if (reference.table !== table) continue;
        for (const [otherKey, otherRow] of [...this.table(other)]) {
          if (String(otherRow[reference.column]) !== id) continue;
          if (reference.onDelete === 'cascade') this.delete(other, otherKey);
          else this.table(other).set(otherKey, { ...otherRow, [reference.column]: null });
        }
      }
    }
  }

  clear(): void {
    for (const name of tableNames) this.table(name).clear();
  }

  /** Runs `change` as one transaction: if it throws, the store is as it was (the app's batch rolled back). */
  transaction(change: () => void): void {
    const before = new Map(tableNames.map((name) => [name, new Map(this.table(name))]));
    try {
      change();
    } catch (error) {
      this.data = before;
      throw error;
    }
  }
}

/** Dart's `value as String`: anything but a string (or null) is a TypeError. */
const asString = (value: unknown, field: string): string | null => {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') throw new TypeError(`type '${typeof value}' is not a subtype of type 'String' in type cast (${field})`);
  return value;
};

/** Dart's `DateTime.parse`: a FormatException for text that is no date. */
const dateOf = (text: string | null, field: string): string | null => {
  if (text === null) return null;
  if (Number.isNaN(Date.parse(text))) throw new Error(`FormatException: Invalid date format (${field}: ${text})`);
  return text;
};

/** Dart's `double.tryParse`: null for text that is no number. */
const tryParseDouble = (text: string | null): number | null =>
  text === null || text.trim() === '' || Number.isNaN(Number(text)) ? null : Number(text);

/** remote_asset_cloud_id's row from a `mobile-app` value (the app's updateAssetsMetadataV1). */
const cloudIdRow = (assetId: string, value: Record<string, unknown>): Row => {
  const latitude = asString(value.latitude, 'latitude');
  const longitude = asString(value.longitude, 'longitude');
  return {
    assetId,
    cloudId: value.iCloudId === undefined || value.iCloudId === null ? null : String(value.iCloudId),
    createdAt: dateOf(asString(value.createdAt, 'createdAt'), 'createdAt'),
    adjustmentTime: dateOf(asString(value.adjustmentTime, 'adjustmentTime'), 'adjustmentTime'),
    latitude: tryParseDouble(latitude),
    longitude: tryParseDouble(longitude),
  };
};

/** The app's handling of one line's data (mobile/lib/domain/services/sync_stream.service.dart `_handleSyncData`). */
export const applyLine = (store: AppStore, type: string, data: any): void => {
  switch (type) {
    case 'AuthUserV1':
      store.upsert('authUsers', data);
      return;
    case 'UserV1':
      store.upsert('users', data);
      return;
    case 'UserDeleteV1':
      store.delete('users', data.userId);
      return;
    case 'PartnerV1':
      store.upsert('partners', data);
      return;
    case 'PartnerDeleteV1':
      store.delete('partners', `${data.sharedById}|${data.sharedWithId}`);
      return;
    case 'AssetV2':
    case 'PartnerAssetV2':
    case 'PartnerAssetBackfillV2':
    case 'AlbumAssetCreateV2':
    case 'AlbumAssetUpdateV2':
    case 'AlbumAssetBackfillV2':
      store.upsert('assets', data);
      return;
    case 'AssetDeleteV1':
    case 'PartnerAssetDeleteV1':
      store.delete('assets', data.assetId);
      return;
    case 'AssetExifV1':
    case 'PartnerAssetExifV1':
    case 'PartnerAssetExifBackfillV1':
    case 'AlbumAssetExifCreateV1':
    case 'AlbumAssetExifUpdateV1':
    case 'AlbumAssetExifBackfillV1':
      store.upsert('exifs', data);
      return;
    case 'AssetEditV1':
      store.upsert('assetEdits', data);
      return;
    case 'AssetEditDeleteV1':
      store.delete('assetEdits', data.editId);
      return;
    case 'AssetMetadataV1':
      // Only the app's own key is kept (kMobileMetadataKey), as its cloud id, read as the app reads
      // it (sync_stream.repository.dart): dates and coordinates `as String`, so anything else fails the batch.
      if (data.key === 'mobile-app') store.upsert('cloudIds', cloudIdRow(data.assetId, data.value));
      return;
    case 'AssetMetadataDeleteV1':
      if (data.key === 'mobile-app') store.delete('cloudIds', data.assetId);
      return;
    case 'AlbumV2':
      store.upsert('albums', data);
      return;
    case 'AlbumDeleteV1':
      store.delete('albums', data.albumId);
      return;
    case 'AlbumUserV1':
    case 'AlbumUserBackfillV1':
      store.upsert('albumUsers', data);
      return;
    case 'AlbumUserDeleteV1':
      store.delete('albumUsers', `${data.albumId}|${data.userId}`);
      return;
    case 'AlbumToAssetV1':
    case 'AlbumToAssetBackfillV1':
      store.upsert('albumAssets', data);
      return;
    case 'AlbumToAssetDeleteV1':
      store.delete('albumAssets', `${data.albumId}|${data.assetId}`);
      return;
    case 'MemoryV1':
      store.upsert('memories', data);
      return;
    case 'MemoryDeleteV1':
      store.delete('memories', data.memoryId);
      return;
    case 'MemoryToAssetV1':
      store.upsert('memoryAssets', data);
      return;
    case 'MemoryToAssetDeleteV1':
      store.delete('memoryAssets', `${data.memoryId}|${data.assetId}`);
      return;
    case 'StackV1':
    case 'PartnerStackV1':
    case 'PartnerStackBackfillV1':
      store.upsert('stacks', data);
      return;
    case 'StackDeleteV1':
    case 'PartnerStackDeleteV1':
      store.delete('stacks', data.stackId);
      return;
    case 'UserMetadataV1':
      store.upsert('userMetadata', data);
      return;
    case 'UserMetadataDeleteV1':
      store.delete('userMetadata', `${data.userId}|${data.key}`);
      return;
    case 'PersonV1':
      store.upsert('people', data);
      return;
    case 'PersonDeleteV1':
      store.delete('people', data.personId);
      return;
    case 'AssetFaceV2':
      store.upsert('faces', data);
      return;
    case 'AssetFaceDeleteV1':
      store.delete('faces', data.assetFaceId);
      return;
    case 'AssetOcrV1':
      store.upsert('ocr', data);
      return;
    case 'AssetOcrDeleteV1':
      store.delete('ocr', data.id);
      return;
    case 'SyncResetV1':
      store.clear();
      return;
    case 'SyncAckV1':
    case 'SyncCompleteV1':
      return;
    default:
      throw new Error(`a line the app does not know: ${type}`);
  }
};
