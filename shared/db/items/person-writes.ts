import type { PersonRecord } from '../../model/person.ts';
import * as keys from '../item-keys.ts';
import { putWrite, updateWrite, type Write } from '../transact.ts';
import { personItem, personNameItem } from './person.ts';

/** The personWrites of ./person.ts (one export each: imported as a namespace, so a bundle carries only those used). */
export const create = (person: PersonRecord): Write => putWrite(personItem(person), { condition: 'absent' });
/** One person per name per owner: a concurrent upload naming the same new person cancels this one (`name-taken`). */
export const claimName = (person: PersonRecord): Write<'name-taken'> =>
  putWrite(personNameItem(person.ownerId, person.name, person.id), { condition: 'absent', refusal: 'name-taken' });
/**
 * Faces gained (or lost, negative) by a person, `timeline` of them on assets in the timeline
 * (`inTimeline`): the writer conditions on its assets' status as read, so the count stays right.
 */
export const addFaces = (ownerId: string, personId: string, count: number, options: { timeline: number }): Write =>
  updateWrite(keys.person(ownerId, personId), 'ADD faceCount :n, timelineFaceCount :t', {
    values: { ':n': count, ':t': options.timeline },
    sync: 'unsent',
  });
/** As `addFaces`, only while the person exists: `person-gone` when not. */
export const addFacesWhilePresent = (
  ownerId: string,
  personId: string,
  count: number,
  options: { timeline: number },
): Write<'person-gone'> =>
  updateWrite(keys.person(ownerId, personId), 'ADD faceCount :n, timelineFaceCount :t', {
    values: { ':n': count, ':t': options.timeline },
    sync: 'unsent',
    condition: 'present',
    refusal: 'person-gone',
  });
/** Faces in the timeline moved by an asset's change of status (faces not moving between people). */
export const addTimelineFaces = (ownerId: string, personId: string, count: number): Write =>
  updateWrite(keys.person(ownerId, personId), 'ADD timelineFaceCount :t', { values: { ':t': count }, sync: 'unsent' });
/**
 * A person stored before the count, counted from their faces: kept only while both counts are
 * still those read before the faces were (any write that moves a face moves one of them).
 */
export const countTimelineFaces = (person: PersonRecord, stray: number | undefined, timeline: number): Write =>
  updateWrite(keys.person(person.ownerId, person.id), 'SET timelineFaceCount = :t, timelineCounted = :true', {
    condition:
      stray === undefined
        ? 'faceCount = :faces AND attribute_not_exists(timelineFaceCount) AND attribute_not_exists(timelineCounted)'
        : 'faceCount = :faces AND timelineFaceCount = :stray AND attribute_not_exists(timelineCounted)',
    values: { ':t': timeline, ':true': true, ':faces': person.faceCount, ...(stray === undefined ? {} : { ':stray': stray }) },
    sync: 'unsent',
  });
