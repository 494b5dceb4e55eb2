import { Page } from '@/components/ui/page';

export default function AboutRoute() {
  return (
    <Page title="About">
      <p>
        Hello all! is a small demo: create an account, read and share local news, keep your profile up to date, and try
        out viewing, downloading and printing PDF documents.
      </p>
    </Page>
  );
}
