import type { AlbumRecord } from './album.ts';
import type { AssetRecord, FaceRecord, PhotoEdit } from './asset.ts';
import type { MemoryRecord } from './memory.ts';
import type { PersonRecord } from './person.ts';
import type { UserRecord } from './user.ts';

/**
 * What the sync stream sends in one line (shared/services/sync-stream.service.ts): its type (one
 * of Immich's `SyncEntityType` names), its ack, and the record it is about; the generation's
 * mapper gives it its wire shape (shared/dto/v3/sync.response.ts).
 */
export interface SyncEvent {
  type: string;
  ack: string;
  data:
    | { kind: 'asset'; asset: AssetRecord; favorite: boolean }
    | { kind: 'exif'; asset: AssetRecord }
    | { kind: 'user'; user: UserRecord }
    | { kind: 'authUser'; user: UserRecord }
    | { kind: 'album'; album: AlbumRecord }
    | { kind: 'person'; person: PersonRecord }
    | { kind: 'face'; face: FaceRecord }
    | { kind: 'memory'; memory: MemoryRecord }
    | { kind: 'edit'; assetId: string; edit: PhotoEdit; sequence: number }
    /** Ids and flags only (deletions, partners, album users and entries, user metadata, acks). */
    | { kind: 'fields'; fields: Record<string, unknown> };
}
