/** `AuditDeletesResponseDto`. */
export interface AuditDeletesResponseDto {
  needsFullSync: boolean;
  ids: string[];
}
