import { useNavigate } from 'react-router';
import { appRoutes, newsItemRoute } from '@hello/contract';
import { Page } from '@/components/ui/page';
import type { NoticeState } from '@/components/ui/route-notice';
import { SignInFirst } from '@/features/auth/components/sign-in-first';
import { AddNewsForm } from '@/features/news/components/add-news-form';

export default function AddLocalNewsRoute() {
  const navigate = useNavigate();
  return (
    <Page title="Add local news" intro="Share something with your neighbours, with one or more files.">
      <SignInFirst toDo="add a news item" />
      <AddNewsForm
        onSuccess={(item) => {
          const state: NoticeState = {
            notice: `“${item.title}” was posted.`,
            link: { to: newsItemRoute(item.id), label: 'See it' },
          };
          void navigate(appRoutes.localNews, { state });
        }}
      />
    </Page>
  );
}
