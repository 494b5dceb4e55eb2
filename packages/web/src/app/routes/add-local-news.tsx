import { useNavigate } from 'react-router';
import { appRoutes } from '@hello/contract';
import { Page } from '@/components/ui/page';
import { SignInFirst } from '@/features/auth/components/sign-in-first';
import { AddNewsForm } from '@/features/news/components/add-news-form';

export default function AddLocalNewsRoute() {
  const navigate = useNavigate();
  return (
    <Page title="Add local news" intro="Share something with your neighbours, with one or more files.">
      <SignInFirst toDo="add a news item" />
      <AddNewsForm onSuccess={() => void navigate(appRoutes.localNews)} />
    </Page>
  );
}
