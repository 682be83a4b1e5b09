import type { MemoryType, MemoryView } from '../../model/memory.ts';
import { type AssetResponseDto, mapAssetV3 } from './asset.response.ts';

/** Immich v3's `MemoryResponseDto`: optional dates left out when unset. */
export interface MemoryResponseDto {
  id: string;
  createdAt: string;
  updatedAt: string;
  deletedAt?: string;
  memoryAt: string;
  seenAt?: string;
  showAt?: string;
  hideAt?: string;
  ownerId: string;
  type: MemoryType;
  data: { year: number };
  isSaved: boolean;
  assets: AssetResponseDto[];
}

export interface MemoryStatisticsResponseDto {
  total: number;
}

export const mapMemory = ({ memory, assets }: MemoryView, callerId: string): MemoryResponseDto => ({
  id: memory.id,
  createdAt: memory.createdAt,
  updatedAt: memory.updatedAt,
  memoryAt: memory.memoryAt,
  ...(memory.seenAt ? { seenAt: memory.seenAt } : {}),
  ...(memory.showAt ? { showAt: memory.showAt } : {}),
  ...(memory.hideAt ? { hideAt: memory.hideAt } : {}),
  ownerId: memory.ownerId,
  type: memory.type,
  data: memory.data,
  isSaved: memory.isSaved,
  assets: assets.map((asset) => mapAssetV3(asset, { callerId })),
});
