import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { editNewsRoute, type NewsItem } from '@hello/contract';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ApiError, AuthLostError } from '@/lib/errors';
import { describeSubmissionError } from '@/lib/form-errors';
import { deleteNews } from '../api/delete-news';
import { onEscape } from '@/lib/on-escape';
import { fromItemPage } from '../utils/edit-history';

type Step = { name: 'idle' } | { name: 'confirming' } | { name: 'deleting' } | { name: 'failed'; messages: string[] };

/**
 * Edit and Delete, for the item's author. Delete asks first, in the page (no modal to trap or
 * escape from): the question and its two buttons replace the Delete button, Cancel focused.
 */
export function AuthorActions({ item, onDeleted }: { item: NewsItem; onDeleted: () => void }) {
  const [step, setStep] = useState<Step>({ name: 'idle' });
  const cancel = useRef<HTMLButtonElement>(null);
  const ask = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  // False once the page is left: a deletion under way ends, but takes the user nowhere. (The forms'
  // useStillShown, written out: shared with this page it became a chunk the home page's code names.)
  const shown = useRef(false);
  useEffect(() => {
    shown.current = true;
    return () => {
      shown.current = false;
    };
  }, []);
  const confirming = step.name === 'confirming';
  // Focus follows the question: onto Cancel when it appears, back onto Delete when it is gone
  // (cancelled, or the deletion failed: its button gone, focus would fall to <body>).
  useEffect(() => {
    if (step.name === 'confirming') cancel.current?.focus();
    else if (asked.current) ask.current?.focus();
    asked.current ||= step.name === 'confirming';
  }, [step.name]);

  const deleted = () => {
    if (shown.current) onDeleted();
  };
  const remove = async () => {
    setStep({ name: 'deleting' });
    try {
      await deleteNews(item.id);
    } catch (error) {
      if (error instanceof AuthLostError) return;
      // Already deleted (another tab, another device): what was asked for is done.
      if (error instanceof ApiError && error.status === 404) return deleted();
      console.error('Could not delete the news item', error);
      const { fields, general } = describeSubmissionError(error);
      setStep({ name: 'failed', messages: [...general, ...Object.values(fields).flat()] });
      return;
    }
    deleted();
  };

  const files = item.files.length;
  return (
    <div className="news-actions">
      {step.name === 'failed' && (
        <Alert title="The item was not deleted.">
          {step.messages.map((message) => (
            <p key={message}>{message}</p>
          ))}
        </Alert>
      )}
      {step.name === 'confirming' || step.name === 'deleting' ? (
        <div
          className="news-confirm"
          role="group"
          aria-labelledby="news-confirm-question"
          onKeyDown={onEscape(() => setStep({ name: 'idle' }), confirming)}
        >
          <p id="news-confirm-question">
            Delete this item and its {files} {files === 1 ? 'file' : 'files'}? This cannot be undone.
          </p>
          <div className="row">
            <Button className="btn-danger" onClick={() => void remove()} disabled={step.name === 'deleting'}>
              {step.name === 'deleting' ? 'Deleting…' : 'Yes, delete it'}
            </Button>
            <Button
              ref={cancel}
              variant="secondary"
              onClick={() => setStep({ name: 'idle' })}
              disabled={step.name === 'deleting'}
            >
              Cancel
            </Button>
          </div>
        </div>
      ) : (
        <div className="row">
          <Link className="btn btn-secondary" to={editNewsRoute(item.id)} state={fromItemPage}>
            Edit
          </Link>
          <Button
            ref={ask}
            variant="secondary"
            className="btn-danger-outline"
            onClick={() => setStep({ name: 'confirming' })}
          >
            Delete
          </Button>
        </div>
      )}
    </div>
  );
}

/** In Edit and Delete's place when who is signed in could not be found out: no verdict, a retry. */
export function AuthorUnknown({ onRetry }: { onRetry: () => void }) {
  return (
    <p className="news-actions muted">
      Who is signed in could not be checked: Edit and Delete are not shown.{' '}
      <Button variant="secondary" onClick={onRetry}>
        Retry
      </Button>
    </p>
  );
}
