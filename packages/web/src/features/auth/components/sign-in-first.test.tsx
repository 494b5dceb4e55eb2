import { act, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { clearAuth, storeRefreshToken } from '@/lib/auth';
import { SignInFirst } from './sign-in-first';

describe('SignInFirst', () => {
  afterEach(() => clearAuth());

  const show = () =>
    render(
      <MemoryRouter initialEntries={['/addlocalnews?draft=1']}>
        <SignInFirst toDo="add a news item" />
      </MemoryRouter>,
    );

  it('tells a visitor who is not logged in, before anything is typed, with a way back after logging in', () => {
    clearAuth();
    show();
    expect(screen.getByText(/You are not logged in\./)).toHaveTextContent(
      'You are not logged in. Log in first to add a news item: what you type here is not kept.',
    );
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute(
      'href',
      `/login?next=${encodeURIComponent('/addlocalnews?draft=1')}`,
    );
  });

  it('says nothing to a signed-in user, and goes as soon as one logs in', () => {
    clearAuth();
    show();
    act(() => storeRefreshToken('a-refresh-token'));
    expect(screen.queryByText(/You are not logged in/)).not.toBeInTheDocument();
  });
});
