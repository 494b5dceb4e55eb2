import type { Profile } from '@hello/contract';
import './profile.css';

/** The profile as last loaded or saved; replaced after a successful save. */
export function ProfileSummary({ profile }: { profile: Profile }) {
  const name = [profile.first_name, profile.last_name].filter(Boolean).join(' ');
  const rows: [string, string][] = [
    ['Email', profile.email],
    ['Name', name],
    ['Telephone', profile.user_profile?.telephone ?? ''],
    ['Mobile', profile.user_profile?.mobile ?? ''],
    ['Website', profile.user_profile?.website ?? ''],
  ];
  return (
    <dl className="summary" aria-label="Saved profile">
      {rows.map(([label, value]) => (
        <div key={label} className="summary-row">
          <dt>{label}</dt>
          <dd>{value || <span className="muted">Not set</span>}</dd>
        </div>
      ))}
    </dl>
  );
}
