import type { BulkIdResponseDto } from '#shared/dto/common/album.response.ts';
import { IdParams } from '#shared/dto/common.ts';
import { MergePersonDtoV3 } from '#shared/dto/v3/person.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { mergePerson } from '#shared/services/person/merge.service.ts';

// POST /people/{id}/merge: the people of `ids` become this one (v1.100's merge; v3 answers 200).
export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'person.merge',
    returns: returns<BulkIdResponseDto[]>(),
    params: IdParams,
    body: MergePersonDtoV3,
  },
  ({ auth, params, body }) => mergePerson(auth, params.id, body.ids),
);
