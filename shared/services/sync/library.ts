import { changeIdAt, changeIdTime } from '../../db/changes.ts';
import * as syncRepo from '../../db/sync.repository.ts';
import type { StackRecord } from '../../model/stack.ts';
import type { SyncEvent } from '../../model/sync.ts';
import { backfill, fields, presentOf, sendChanges, sendDeletions, type TypeSyncs, windowOf } from './mechanics.ts';

/** When a deletion was recorded: its change id's time. */
const changeIdDate = (id: string): string => new Date(changeIdTime(id)).toISOString();

/** Immich's SyncStackV1. */
const stackRow = (stack: StackRecord): SyncEvent['data'] =>
  fields({
    id: stack.id,
    createdAt: stack.createdAt,
    updatedAt: stack.updatedAt,
    primaryAssetId: stack.primaryAssetId,
    ownerId: stack.ownerId,
  });

/** The rest of the user's library: memories, people and faces, photo edits, asset metadata, stacks (and the partners' stacks). */
export const libraryTypes: TypeSyncs = {
  MemoriesV1: async (context) => {
    await sendDeletions(
      context,
      'MemoryDeleteV1',
      (window) => [syncRepo.deletionsOf.memories(context.userId, window)],
      ({ memoryId }) => ({ memoryId }),
    );
    await sendChanges(context, 'MemoryV1', syncRepo.memoryChanges(context.userId, presentOf(context, 'MemoryV1')), (memory) => ({
      kind: 'memory',
      memory,
    }));
  },
  MemoryToAssetsV1: async (context) => {
    await sendDeletions(
      context,
      'MemoryToAssetDeleteV1',
      (window) => [syncRepo.deletionsOf.memoryAssets(context.userId, window)],
      ({ memoryId, assetId }) => ({ memoryId, assetId }),
    );
    await sendChanges(
      context,
      'MemoryToAssetV1',
      syncRepo.memoryAssetChanges(context.userId, windowOf(context, 'MemoryToAssetV1')),
      fields,
    );
  },
  PeopleV1: async (context) => {
    await sendDeletions(
      context,
      'PersonDeleteV1',
      (window) => [syncRepo.deletionsOf.people(context.userId, window)],
      ({ personId }) => ({ personId }),
    );
    await sendChanges(context, 'PersonV1', syncRepo.personChanges(context.userId, presentOf(context, 'PersonV1')), (person) => ({
      kind: 'person',
      person,
    }));
  },
  AssetFacesV2: async (context) => {
    await sendDeletions(
      context,
      'AssetFaceDeleteV1',
      (window) => [syncRepo.deletionsOf.faces(context.userId, window)],
      ({ assetFaceId }) => ({ assetFaceId }),
    );
    await sendChanges(context, 'AssetFaceV2', syncRepo.faceChanges(context.userId, windowOf(context, 'AssetFaceV2')), (face) => ({
      kind: 'face',
      face,
    }));
  },
  AssetEditsV1: async (context) => {
    await sendDeletions(
      context,
      'AssetEditDeleteV1',
      (window) => [syncRepo.deletionsOf.assetEdits(context.userId, window)],
      ({ editId }) => ({ editId }),
    );
    // An asset's edits as they are now, in order (`sequence`), each a row acked with their change.
    for await (const change of syncRepo.assetEditChanges(context.userId, windowOf(context, 'AssetEditV1')))
      for (const [sequence, edit] of change.record.edits.entries())
        await context.send(
          'AssetEditV1',
          { kind: 'edit', assetId: change.record.assetId, edit, sequence },
          { type: 'AssetEditV1', updateId: change.updateId },
        );
  },
  AssetOcrV1: async (context) => {
    // Each record names the lines one run replaced: a line each. All but an item's last line are
    // acked at the change before it (the earliest id when none came before), so an app that applies
    // only part of an item (a batch ending inside it, the stream then cut) gets it all again.
    const deletionWindow = windowOf(context, 'AssetOcrDeleteV1');
    let previous = deletionWindow.after;
    for await (const change of syncRepo.deletionsOf.assetOcr(context.userId, deletionWindow)) {
      const ids = (change.record.lineIds ?? '').split(',').filter(Boolean);
      for (const [index, id] of ids.entries())
        await context.send('AssetOcrDeleteV1', fields({ id, assetId: change.record.assetId, deletedAt: changeIdDate(change.updateId) }), {
          type: 'AssetOcrDeleteV1',
          updateId: index === ids.length - 1 ? change.updateId : (previous ?? changeIdAt(0)),
        });
      previous = change.updateId;
    }
    // The caller's own assets' lines only (Immich sends no partner's or album's), as they are now.
    const window = windowOf(context, 'AssetOcrV1');
    previous = window.after;
    for await (const change of syncRepo.assetOcrChanges(context.userId, window)) {
      const { lines, assetId } = change.record;
      for (const [index, line] of lines.entries())
        await context.send('AssetOcrV1', fields({ ...line, assetId }), {
          type: 'AssetOcrV1',
          updateId: index === lines.length - 1 ? change.updateId : (previous ?? changeIdAt(0)),
        });
      previous = change.updateId;
    }
  },
  AssetMetadataV1: async (context) => {
    // Explicit deletions only: metadata that went with its asset goes with the AssetDeleteV1 (the app's rows cascade).
    await sendDeletions(
      context,
      'AssetMetadataDeleteV1',
      (window) => [syncRepo.deletionsOf.assetMetadata(context.userId, window)],
      ({ assetId, key }) => ({ assetId, key }),
    );
    await sendChanges(
      context,
      'AssetMetadataV1',
      syncRepo.assetMetadataChanges(context.userId, windowOf(context, 'AssetMetadataV1')),
      ({ assetId, key, value }) => fields({ assetId, key, value }),
    );
  },
  StacksV1: async (context) => {
    await sendDeletions(
      context,
      'StackDeleteV1',
      (window) => [syncRepo.deletionsOf.stacks(context.userId, window)],
      ({ stackId }) => ({ stackId }),
    );
    await sendChanges(context, 'StackV1', syncRepo.stackChanges(context.userId, windowOf(context, 'StackV1')), stackRow);
  },
  PartnerStacksV1: async (context) => {
    const partners = await context.partners();
    await sendDeletions(
      context,
      'PartnerStackDeleteV1',
      (window) => partners.map((partner) => syncRepo.deletionsOf.stacks(partner.sharedById, window)),
      ({ stackId }) => ({ stackId }),
    );
    await backfill(context, partners, { backfill: 'PartnerStackBackfillV1', upsert: 'PartnerStackV1' }, (partner, window) =>
      (async function* () {
        for await (const change of syncRepo.stackChanges(partner.sharedById, window))
          yield { updateId: change.updateId, data: stackRow(change.record) };
      })(),
    );
    const window = windowOf(context, 'PartnerStackV1');
    for await (const change of syncRepo.mergeInOrder(
      partners.map((partner) => syncRepo.stackChanges(partner.sharedById, window)),
      (change) => change.updateId,
    ))
      await context.send('PartnerStackV1', stackRow(change.record), { type: 'PartnerStackV1', updateId: change.updateId });
  },
};
