import { SearchPeopleDto } from '#shared/dto/v1/search.ts';
import { mapPersonV3, type PersonResponseDto } from '#shared/dto/v3/person.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { searchPeople } from '#shared/services/person/person.service.ts';

// A path both generations share (docs/immich-compatibility.md): v3's person, a superset of
// v1.100's, up to v3's 100 (v1.100 answered 20), checked and refused as v1.100 did.
export const handler = httpHandler(
  { access: 'user', permission: 'person.read', query: SearchPeopleDto, returns: returns<PersonResponseDto[]>() },
  async ({ auth, query }) => (await searchPeople(auth, query.name, query.withHidden === true, 100)).map(mapPersonV3),
);
