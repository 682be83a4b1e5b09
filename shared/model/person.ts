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
  createdAt: instant(),
  updatedAt: instant(),
});
export type PersonRecord = v.InferOutput<typeof PersonRecordSchema>;

export interface PersonChanges {
  name?: string;
  birthDate?: string | null;
  isHidden?: boolean;
  faceAssetId?: string;
}

/** Names match case-insensitively (and whatever Unicode form the file used). */
export const foldName = (name: string): string => name.normalize('NFKC').trim().toLowerCase();

/** The caller's people to show, and how many they have in all and hidden. */
export interface People {
  total: number;
  hidden: number;
  people: PersonRecord[];
}

/** The calendar day a birth date is stored as (PostgreSQL's `date` column keeps the instant's UTC day). */
export const birthDay = (instant: string | null): string | null => (instant === null ? null : instant.slice(0, 10));
