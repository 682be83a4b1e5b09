import type { BulkIdResponseDto } from '#shared/dto/common/album.response.ts';
import { IdParams } from '#shared/dto/common.ts';
import { MergePersonDto } from '#shared/dto/v1/person.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { mergePerson } from '#shared/services/person/merge.service.ts';

export const handler = httpHandler(
  {
    access: 'user',
    permission: 'person.merge',
    returns: returns<BulkIdResponseDto[]>(),
    params: IdParams,
    body: MergePersonDto,
    status: 201,
  },
  ({ auth, params, body }) => mergePerson(auth, params.id, body.ids),
);
