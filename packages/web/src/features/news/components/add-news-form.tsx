import { useState } from 'react';
import { addNewsForm, defaultLimits } from '@hello/contract';
import { InputField, TextareaField } from '@/components/ui/form/field';
import { FormFrame } from '@/components/ui/form/form-frame';
import { Progress } from '@/components/ui/progress';
import { useAppForm } from '@/lib/use-app-form';
import { formatBytes } from '@/utils/format';
import { createNews } from '../api/create-news';

const filesHint =
  `Choose one or more files: up to ${defaultLimits.maxUploadFiles}, ` +
  `each at most ${formatBytes(defaultLimits.maxUploadFileBytes)}.`;

export function AddNewsForm({ onSuccess }: { onSuccess: () => void }) {
  // null while nothing is being uploaded; 0..1 during the upload.
  const [progress, setProgress] = useState<number | null>(null);
  const f = useAppForm({
    schema: addNewsForm,
    defaultValues: { title: '', content: '' },
    labels: { title: 'Title', content: 'Content', files: 'Files' },
    onSubmit: async (values) => {
      setProgress(0);
      try {
        await createNews(values, setProgress);
      } finally {
        setProgress(null);
      }
      onSuccess();
    },
  });
  return (
    <FormFrame
      label="Add a news item"
      form={f}
      footer={progress !== null && <Progress value={progress} label="Uploading" />}
    >
      <InputField label="Title" autoComplete="off" error={f.errorFor('title')} {...f.register('title')} />
      <TextareaField label="Content" error={f.errorFor('content')} {...f.register('content')} />
      <InputField label="Files" type="file" multiple hint={filesHint} error={f.errorFor('files')} {...f.register('files')} />
    </FormFrame>
  );
}
