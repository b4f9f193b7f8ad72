// Campaigns: the workspace's campaigns with their status and progress, kept live by the message subscriptions and,
// while one is under way, read again every few seconds (useRereadWhileUnderWay);
// a form that creates one (campaignForm.tsx); and, at /campaigns/:id, one campaign followed live (campaign.tsx).
// Owners and admins manage campaigns (the API's campaigns permission); the route is closed to other roles.
import { gql } from '@urql/core';
import { useQuery, useSubscription } from '@urql/preact';
import { useLocation, useRoute } from 'preact-iso';
import { EmptyNote, ErrorNote, ListTable, Page, Time } from '../../ui.js';
import { CampaignForm } from './campaignForm.js';
import { CampaignView, finished, useRereadWhileUnderWay } from './campaign.js';

type Row = {
  id: string;
  name: string;
  status: string;
  template: { name: string };
  created_at: string;
  progress: {
    total: number;
    pending: number;
    sending: number;
    sent: number;
    delivered: number;
    read: number;
    failed: number;
    skipped: number;
    skipped_opted_out: number;
    cancelled: number;
  };
};

const LIST = gql`
  query CampaignsPage {
    campaigns(limit: 50) {
      data { id name status template { name } created_at progress { total pending sending sent delivered read failed skipped skipped_opted_out cancelled } }
    }
  }
`;
const LIVE = gql`
  subscription CampaignsPageLive {
    messageStatusChanged { id }
  }
`;

export function CampaignsPage() {
  const { params } = useRoute();
  const { route } = useLocation();
  const [listed, refresh] = useQuery<{ campaigns: { data: Row[] } }>({ query: LIST });
  const refetch = () => refresh({ requestPolicy: 'network-only' });
  useSubscription({ query: LIVE }, (_previous: unknown, event: unknown) => {
    refetch();
    return event;
  });
  const selected = params['id'];
  const campaigns = listed.data?.campaigns.data;
  useRereadWhileUnderWay(selected ? [] : (campaigns ?? []).map((campaign) => campaign.status), refetch);
  return (
    <Page title="Campaigns">
      {selected ? (
        <>
          <a href="/campaigns">← All campaigns</a>
          <CampaignView id={selected} />
        </>
      ) : (
        <>
          <ErrorNote error={listed.error} />
          <EmptyNote items={campaigns}>No campaigns yet — create one below.</EmptyNote>
          {campaigns?.length ? (
            <ListTable label="Campaigns" columns={['Name', 'Status', 'Progress', 'Template', 'Created']}>
              {campaigns.map((campaign) => (
                <tr key={campaign.id} data-testid="campaign-row">
                  <td>
                    <a href={`/campaigns/${campaign.id}`}>{campaign.name}</a>
                  </td>
                  <td data-status={campaign.status}>{campaign.status}</td>
                  <td>
                    {finished(campaign.progress)} of {campaign.progress.total} done · {campaign.progress.delivered + campaign.progress.read}{' '}
                    delivered · {campaign.progress.read} read · {campaign.progress.failed} failed
                  </td>
                  <td>{campaign.template.name}</td>
                  <td>
                    <Time value={campaign.created_at} />
                  </td>
                </tr>
              ))}
            </ListTable>
          ) : null}
          <CampaignForm
            onCreated={(id) => {
              refetch();
              route(`/campaigns/${id}`);
            }}
          />
        </>
      )}
    </Page>
  );
}
