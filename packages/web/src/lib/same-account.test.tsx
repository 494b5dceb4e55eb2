import { act, renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { tokenFromOtherTab } from '../../test/helpers';
import { sameEmail, useAccountKey } from './same-account';
import { clearAuth, setUserEmail, storeRefreshToken } from './auth';

describe('useAccountKey', () => {
  beforeEach(() => clearAuth());

  const learned = (email: string) => act(() => setUserEmail(email));

  it('stays while another tab stores a new token of the same account (a profile saved there)', () => {
    storeRefreshToken('r1');
    setUserEmail('ann@example.com');
    const { result } = renderHook(() => useAccountKey());
    const before = result.current;
    tokenFromOtherTab('r2');
    expect(result.current).toBe(before); // the e-mail is being asked again: nothing known says otherwise
    learned('Ann@Example.com');
    expect(result.current).toBe(before);
  });

  it('changes once another tab signs in as another account, as soon as its e-mail is known', () => {
    storeRefreshToken('r1');
    const { result } = renderHook(() => useAccountKey());
    const before = result.current;
    learned('ann@example.com'); // learned after the page opened: the page's account
    expect(result.current).toBe(before);
    tokenFromOtherTab('r2');
    learned('bob@example.com');
    expect(result.current).not.toBe(before);
  });

  it('stays when the session ends (the page goes on, or its next call sends to /login), and changes when one starts', () => {
    storeRefreshToken('r1');
    setUserEmail('ann@example.com');
    const { result } = renderHook(() => useAccountKey());
    const before = result.current;
    tokenFromOtherTab(null);
    expect(result.current).toBe(before);
    tokenFromOtherTab('r2');
    const after = result.current;
    expect(after).not.toBe(before);
    learned('ann@example.com'); // the same account again: its session started anew, loaded once more
    expect(result.current).toBe(after);
  });

  it('stays when this tab signs out (an account deleted, this device logged out)', () => {
    storeRefreshToken('r1');
    setUserEmail('ann@example.com');
    const { result } = renderHook(() => useAccountKey());
    const before = result.current;
    act(() => clearAuth());
    expect(result.current).toBe(before);
  });
});

describe('sameEmail', () => {
  it('ignores letter case and never matches a missing address', () => {
    expect(sameEmail('Ann@Example.com', 'ann@example.COM')).toBe(true);
    expect(sameEmail('ann@example.com', 'anne@example.com')).toBe(false);
    expect(sameEmail(null, null)).toBe(false);
    expect(sameEmail(undefined, '')).toBe(false);
  });

  it('matches a domain written in Unicode with its ASCII form, as the server does', () => {
    expect(sameEmail('Ann@Bücher.de', 'ann@xn--bcher-kva.de')).toBe(true);
    expect(sameEmail('ann@bücher.de', 'ann@xn--bucher-kva.de')).toBe(false);
    expect(sameEmail('ann@not a host', 'ANN@NOT A HOST')).toBe(true);
  });
});
