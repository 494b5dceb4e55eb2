import { Page } from '@/components/ui/page';

/** docs/web-app.md, "Pages": the home page shows only a welcome heading. */
export default function HomeRoute() {
  return <Page title="Welcome!" />;
}
