import { appRoutes } from '@hello/contract';

export interface NavLinkItem {
  to: string;
  label: string;
  /** Shown only to a visitor who is (or is not) signed in; always shown when absent. */
  when?: 'signedIn' | 'signedOut';
}
export interface NavGroup {
  title: string;
  links: NavLinkItem[];
}

/** The header's navigation, grouped so it stays scannable on a phone. */
export const navGroups: NavGroup[] = [
  {
    title: 'General',
    links: [
      { to: appRoutes.home, label: 'Home' },
      { to: appRoutes.about, label: 'About' },
    ],
  },
  {
    title: 'News',
    links: [
      { to: appRoutes.localNews, label: 'Local news' },
      { to: appRoutes.news, label: 'All news' },
      { to: appRoutes.addLocalNews, label: 'Add news' },
    ],
  },
  {
    title: 'PDF',
    links: [
      { to: appRoutes.pdfViewer, label: 'Viewer' },
      { to: appRoutes.downloadPdf, label: 'Download' },
      { to: appRoutes.printPdf, label: 'Print PDF' },
      { to: appRoutes.printCurrentPage, label: 'Print page' },
    ],
  },
  {
    title: 'Account',
    links: [
      { to: appRoutes.login, label: 'Login', when: 'signedOut' },
      { to: appRoutes.register, label: 'Register', when: 'signedOut' },
      { to: appRoutes.resetPasswordRequest, label: 'Reset password', when: 'signedOut' },
      { to: appRoutes.userProfile, label: 'Profile', when: 'signedIn' },
      { to: appRoutes.sessions, label: 'Devices', when: 'signedIn' },
      { to: appRoutes.changePassword, label: 'Change password', when: 'signedIn' },
      { to: appRoutes.changeEmail, label: 'Change e-mail', when: 'signedIn' },
      { to: appRoutes.twoFactor, label: 'Two-step sign-in', when: 'signedIn' },
      { to: appRoutes.logoutToken, label: 'Logout (token)', when: 'signedIn' },
      { to: appRoutes.logoutJwt, label: 'Logout (JWT)', when: 'signedIn' },
    ],
  },
];
