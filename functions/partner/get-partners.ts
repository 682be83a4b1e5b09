import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { PartnerDirectionQuery } from '#shared/schemas/partner.ts';
import { getPartners, type PartnerResponseDto } from '#shared/services/partner.service.ts';

export const handler = httpHandler(
  { access: 'user', returns: returns<PartnerResponseDto[]>(), query: PartnerDirectionQuery },
  ({ auth, query }) => getPartners(auth, query.direction),
);
