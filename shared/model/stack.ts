import * as v from 'valibot';
import { id, instant } from './fields.ts';

/**
 * Immich v3's stack: an owner's assets shown as one (a burst, RAW and JPEG), led by its primary
 * asset. The members carry a copy of it (`AssetRecord.stack`); the stack lists them.
 */
export const StackRecordSchema = v.object({
  id: id(),
  ownerId: id(),
  primaryAssetId: id(),
  assetIds: v.array(id()),
  createdAt: instant(),
  updatedAt: instant(),
});
export type StackRecord = v.InferOutput<typeof StackRecordSchema>;

/**
 * Most assets one stack holds here: every member is written with the stack in one transaction
 * (docs/immich-compatibility.md, "Stacks"; Immich sets no limit).
 */
export const maxStackSize = 40;

/** A stack with its members as read (those still there, untrashed and listed, as Immich loads them). */
export interface StackView<A> {
  stack: StackRecord;
  assets: A[];
}
