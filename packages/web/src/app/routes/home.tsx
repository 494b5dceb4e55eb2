import { Page } from '@/components/ui/page';

/** Specification §1: the home page shows only a welcome heading. */
export default function HomeRoute() {
  return <Page title="Welcome!" />;
}
