export interface DownloadArchiveInfo {
  size: number;
  assetIds: string[];
}

export interface DownloadResponseDto {
  totalSize: number;
  archives: DownloadArchiveInfo[];
}

/** A download's archives, and their total size. */
export const mapDownloadInfo = (archives: readonly DownloadArchiveInfo[]): DownloadResponseDto => ({
  totalSize: archives.reduce((sum, each) => sum + each.size, 0),
  archives: [...archives],
});
