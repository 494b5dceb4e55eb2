import { useMemo, useState } from 'react';
import { defaultLimits, editNewsForm, type NewsItem } from '@hello/contract';
import { FormFrame } from '@/components/ui/form/form-frame';
import { Progress } from '@/components/ui/progress';
import { useAppForm } from '@/lib/use-app-form';
import { formatBytes } from '@/utils/format';
import { updateNews } from '../api/update-news';
import { untilUploaded, useStillShown } from '../utils/page-left';
import { NewsFields } from './news-fields';
import './news.css';

const filesHint =
  `An item holds up to ${defaultLimits.maxUploadFiles} files, ` +
  `each at most ${formatBytes(defaultLimits.maxUploadFileBytes)}, and keeps at least one.`;

export interface EditNewsFormProps {
  item: NewsItem;
  onSaved: (item: NewsItem) => void;
}

/** The author's edit: the add form's fields, prefilled, plus a checkbox per file to remove. */
export function EditNewsForm({ item, onSaved }: EditNewsFormProps) {
  const [progress, setProgress] = useState<number | null>(null);
  const shown = useStillShown();
  const schema = useMemo(() => editNewsForm(item.files.length), [item.files.length]);
  const f = useAppForm({
    schema,
    // An array default makes react-hook-form give the checkboxes' values as a list, even for one file.
    defaultValues: { title: item.title, content: item.content, remove_files: [] },
    labels: { title: 'Title', content: 'Content', files: 'Add files', remove_files: 'Remove files' },
    onSubmit: async (values) => {
      setProgress(0);
      let saved: NewsItem;
      try {
        saved = await untilUploaded(updateNews(item.id, values, setProgress));
      } finally {
        setProgress(null);
      }
      // Saved after the user left the page: going back now would take them from where they went.
      if (shown.current) onSaved(saved);
    },
  });
  const removeError = f.errorFor('remove_files');
  return (
    <FormFrame
      label="Edit the news item"
      form={f}
      footer={progress !== null && <Progress value={progress} label="Uploading" />}
    >
      <NewsFields
        register={f.register}
        errorFor={f.errorFor}
        filesLabel="Add files"
        filesHint={filesHint}
        filesOptional
      />
      {item.files.length > 0 && (
        <fieldset
          className={removeError ? 'fieldset news-remove field-invalid' : 'fieldset news-remove'}
          aria-describedby={removeError ? 'remove-files-error' : undefined}
        >
          <legend>Remove files</legend>
          {item.files.map((file) => (
            <div key={file.id} className="news-check">
              <input
                id={`remove-file-${file.id}`}
                type="checkbox"
                value={String(file.id)}
                {...f.register('remove_files')}
              />
              <label htmlFor={`remove-file-${file.id}`}>{file.name}</label>
              <span className="muted">{formatBytes(file.size)}</span>
            </div>
          ))}
          {removeError && (
            <p id="remove-files-error" className="field-error">
              {removeError}
            </p>
          )}
        </fieldset>
      )}
    </FormFrame>
  );
}
