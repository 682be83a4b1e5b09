import { describe, expect, it } from 'vitest';
import { matchesEventPattern } from '#infra/local/deployed/assembly.ts';

describe('EventBridge patterns, locally (infra/local/deployed/assembly.ts)', () => {
  const pattern = {
    source: ['aws.mediaconvert'],
    'detail-type': ['MediaConvert Job State Change'],
    detail: { status: ['COMPLETE', 'ERROR'], userMetadata: { stack: ['ImmichServerless'] } },
  };
  const event = (detail: Record<string, unknown>, source = 'aws.mediaconvert') => ({
    source,
    'detail-type': 'MediaConvert Job State Change',
    detail: { jobId: 'j1', ...detail },
  });

  it('matches when every field of the pattern equals one of its values, nested objects field by field; fields it does not name are free', () => {
    expect(matchesEventPattern(pattern, event({ status: 'COMPLETE', userMetadata: { stack: 'ImmichServerless', assetId: 'a' } }))).toBe(
      true,
    );
    expect(matchesEventPattern(pattern, event({ status: 'ERROR', userMetadata: { stack: 'ImmichServerless' } }))).toBe(true);
  });

  it('does not match another state, another stack’s job, another source, or an event without the field', () => {
    expect(matchesEventPattern(pattern, event({ status: 'PROGRESSING', userMetadata: { stack: 'ImmichServerless' } }))).toBe(false);
    expect(matchesEventPattern(pattern, event({ status: 'COMPLETE', userMetadata: { stack: 'Other' } }))).toBe(false);
    expect(matchesEventPattern(pattern, event({ status: 'COMPLETE', userMetadata: { stack: 'ImmichServerless' } }, 'aws.s3'))).toBe(false);
    expect(matchesEventPattern(pattern, event({ status: 'COMPLETE' }))).toBe(false);
    // Content filters ({ prefix: … }) are not used by the stack and match nothing here.
    expect(matchesEventPattern({ source: [{ prefix: 'aws.' }] }, event({}))).toBe(false);
  });
});
