import { describe, expect, it } from 'vitest';
import { serverMessages } from '@hello/contract';
import { ApiError } from './errors';
import { describeSubmissionError } from './form-errors';

const throttled = (seconds: number) => new ApiError(429, { detail: serverMessages.throttled(seconds) }, seconds);

describe('describeSubmissionError', () => {
  it('puts field messages under their fields and the rest on the form', () => {
    const error = new ApiError(400, {
      email: ['Enter a valid email address.'],
      user_profile: { website: ['Enter a valid URL.'] },
      non_field_errors: ['Unable to log in with provided credentials.'],
      code: 'invalid',
    });
    expect(describeSubmissionError(error)).toEqual({
      fields: { email: ['Enter a valid email address.'], 'user_profile.website': ['Enter a valid URL.'] },
      general: ['Unable to log in with provided credentials.'],
    });
  });

  it('says how long a 429 asks to wait, in the unit a person would use, rounded up', () => {
    const said = (seconds: number) => describeSubmissionError(throttled(seconds)).general;
    expect(said(1)).toEqual(['Too many attempts. Please try again in 1 second.']);
    expect(said(59)).toEqual(['Too many attempts. Please try again in 59 seconds.']);
    expect(said(61)).toEqual(['Too many attempts. Please try again in 2 minutes.']);
    expect(said(3540)).toEqual(['Too many attempts. Please try again in 59 minutes.']);
    expect(said(3541)).toEqual(['Too many attempts. Please try again in 1 hour.']);
    expect(said(3600)).toEqual(['Too many attempts. Please try again in 1 hour.']);
    expect(said(3601)).toEqual(['Too many attempts. Please try again in 2 hours.']);
  });

  it("keeps the server's text for a 429 without Retry-After, and a sentence for a bare status", () => {
    const detail = serverMessages.throttled(30);
    expect(describeSubmissionError(new ApiError(429, { detail })).general).toEqual([detail]);
    expect(describeSubmissionError(new ApiError(429, null)).general).toEqual([
      'Too many attempts. Please wait a little and try again.',
    ]);
    expect(describeSubmissionError(new ApiError(502, '')).general).toEqual([
      'The server had a problem. Please try again shortly.',
    ]);
  });
});
