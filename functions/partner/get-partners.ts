import { PartnerDirectionQuery } from '#shared/dto/v1/partner.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getPartners, type PartnerResponseDto } from '#shared/services/partner.service.ts';

export const handler = httpHandler(
  { access: 'user', returns: returns<PartnerResponseDto[]>(), query: PartnerDirectionQuery },
  ({ auth, query }) => getPartners(auth, query.direction),
);
