/**
 * The caller's storage as both generations answer it (v1.100's GET /server-info, v3's GET
 * /server/storage): Immich's disk figures (docs/immich-compatibility.md, "Server info").
 */
import type { UserRecord } from '../../model/user.ts';

/** The features machine learning decides (shared/ml/ml.ts's `mlFeatures`; docs/machine-learning.md). */
export interface MlFeatures {
  smartSearch: boolean;
  ocr: boolean;
  duplicateDetection: boolean;
}

/** GET /server-info: Immich's disk figures (docs/immich-compatibility.md, "Server info"). */
export interface ServerInfoResponseDto {
  diskSize: string;
  diskUse: string;
  diskAvailable: string;
  diskSizeRaw: number;
  diskUseRaw: number;
  diskAvailableRaw: number;
  diskUsagePercentage: number;
}

/** Immich's `asHumanReadable`: binary units, one decimal past bytes (`1.5 GiB`, `512 B`). */
export const asHumanReadable = (bytes: number, precision = 1): string => {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];
  let magnitude = 0;
  let remainder = bytes;
  while (remainder >= 1024 && magnitude + 1 < units.length) {
    magnitude++;
    remainder /= 1024;
  }
  return `${remainder.toFixed(magnitude === 0 ? 0 : precision)} ${units[magnitude]}`;
};

/**
 * The disk figures of one user's storage (docs/immich-compatibility.md, "Server info"): their usage
 * against their quota; without one, against all that the server stores (every user's usage: a
 * bucket has no capacity of its own, so the one true size is what it holds).
 */
export const storageInfo = (usage: number, quota: number | null, stored: number): ServerInfoResponseDto => {
  const size = quota && quota > 0 ? quota : Math.max(stored, usage);
  const available = Math.max(0, size - usage);
  return {
    diskSize: asHumanReadable(size),
    diskUse: asHumanReadable(usage),
    diskAvailable: asHumanReadable(available),
    diskSizeRaw: size,
    diskUseRaw: usage,
    diskAvailableRaw: available,
    diskUsagePercentage: size > 0 ? Number.parseFloat(((usage / size) * 100).toFixed(2)) : 0,
  };
};

/** The caller's storage as Immich's disk figures: their usage against their quota, or against what the server stores. */
export const mapServerInfo = ({ user, stored }: { user: UserRecord; stored: number }): ServerInfoResponseDto =>
  storageInfo(user.quotaUsageInBytes, user.quotaSizeInBytes, stored);
