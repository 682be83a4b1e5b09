import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { id, instant, nullable } from './fields.ts';

/** A person, stored under its owner. */
export const PersonRecordSchema = v.object({
  id: id(),
  ownerId: id(),
  name: v.string(),
  /** `YYYY-MM-DD` or null. */
  birthDate: nullable(v.string()),
  isHidden: v.boolean(),
  thumbnailPath: v.string(),
  /** The asset whose face is the person's feature face (PUT /person featureFaceAssetId). */
  faceAssetId: nullable(id()),
  /** Faces of this person across the owner's assets (Immich orders people by it). */
  faceCount: v.number(),
  /**
   * Faces of this person on the owner's assets in the timeline (not archived, trashed, hidden or
   * locked): Immich lists and counts people by them. null: not counted yet (a person stored before
   * the count was kept: docs/data-model.md, "Earlier shapes").
   */
  timelineFaceCount: v.optional(v.nullable(v.number()), null),
  /** Immich v3's favourite people (listed first) and their colour; v1.100 has neither. */
  isFavorite: v.optional(v.boolean(), false),
  color: nullable(v.string()),
  createdAt: instant(),
  updatedAt: instant(),
});
export type PersonRecord = v.InferOutput<typeof PersonRecordSchema>;

/** A new person of an owner as created (POST /people, or a name a file's face regions bring): no faces yet. */
export const newPerson = (
  ownerId: string,
  now: string,
  given: Partial<Pick<PersonRecord, 'id' | 'name' | 'birthDate' | 'isHidden' | 'faceAssetId' | 'isFavorite' | 'color'>> = {},
): PersonRecord => ({
  id: given.id ?? randomUUID(),
  ownerId,
  name: given.name ?? '',
  birthDate: given.birthDate ?? null,
  isHidden: given.isHidden ?? false,
  thumbnailPath: '',
  faceAssetId: given.faceAssetId ?? null,
  faceCount: 0,
  timelineFaceCount: 0,
  isFavorite: given.isFavorite ?? false,
  color: given.color ?? null,
  createdAt: now,
  updatedAt: now,
});

export interface PersonChanges {
  name?: string;
  birthDate?: string | null;
  isHidden?: boolean;
  /** null: no feature face (a person whose faces all went). */
  faceAssetId?: string | null;
  isFavorite?: boolean;
  color?: string | null;
}

/** What a user may change on a person, from either generation (PUT /person/:id, PUT /people/:id and the bulk forms). */
export interface PersonEdit {
  name?: string | undefined;
  /** An instant; its UTC day is kept. null clears it. */
  birthDate?: string | null | undefined;
  isHidden?: boolean | undefined;
  featureFaceAssetId?: string | undefined;
  isFavorite?: boolean | undefined;
  color?: string | null | undefined;
}

/** A new person (POST /person, POST /people). */
export type NewPerson = Omit<PersonEdit, 'featureFaceAssetId'>;

/** Names match case-insensitively (and whatever Unicode form the file used). */
export const foldName = (name: string): string => name.normalize('NFKC').trim().toLowerCase();

/** The caller's people to show, and how many they have in all and hidden; with paging, whether more follow. */
export interface People {
  total: number;
  hidden: number;
  people: PersonRecord[];
  hasNextPage?: boolean;
}

/** The calendar day a birth date is stored as (PostgreSQL's `date` column keeps the instant's UTC day). */
export const birthDay = (instant: string | null): string | null => (instant === null ? null : instant.slice(0, 10));
