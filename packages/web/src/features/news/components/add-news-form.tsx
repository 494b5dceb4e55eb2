import { useState } from 'react';
import { addNewsForm, defaultLimits, type NewsItem } from '@hello/contract';
import { FormFrame } from '@/components/ui/form/form-frame';
import { Progress } from '@/components/ui/progress';
import { useAppForm } from '@/lib/use-app-form';
import { formatBytes } from '@/utils/format';
import { createNews } from '../api/create-news';
import { untilUploaded, useStillShown } from '../utils/page-left';
import { NewsFields } from './news-fields';

const filesHint =
  `Choose one or more files: up to ${defaultLimits.maxUploadFiles}, ` +
  `each at most ${formatBytes(defaultLimits.maxUploadFileBytes)}.`;

export function AddNewsForm({ onSuccess }: { onSuccess: (item: NewsItem) => void }) {
  // null while nothing is being uploaded; 0..1 during the upload.
  const [progress, setProgress] = useState<number | null>(null);
  const shown = useStillShown();
  const f = useAppForm({
    schema: addNewsForm,
    defaultValues: { title: '', content: '' },
    labels: { title: 'Title', content: 'Content', files: 'Files' },
    onSubmit: async (values) => {
      setProgress(0);
      let item: NewsItem;
      try {
        item = await untilUploaded(createNews(values, setProgress));
      } finally {
        setProgress(null);
      }
      // Posted after the user left the page: it stands, but takes them nowhere.
      if (shown.current) onSuccess(item);
    },
  });
  return (
    <FormFrame
      label="Add a news item"
      form={f}
      footer={progress !== null && <Progress value={progress} label="Uploading" />}
    >
      <NewsFields register={f.register} errorFor={f.errorFor} filesLabel="Files" filesHint={filesHint} />
    </FormFrame>
  );
}
