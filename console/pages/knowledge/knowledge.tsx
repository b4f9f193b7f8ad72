// Knowledge (/knowledge): what the AI agent answers from and how it used it. A search that shows the agent's ranking
// for a customer's question, the documents and FAQs (every role may edit them, as the API's `knowledge` permission
// allows), and the knowledge its replies were drawn from, most used first, with its recent replies and their sources.
import { useState } from 'preact/hooks';
import { Page } from '../../ui.js';
import { KnowledgeSearch } from './search.js';
import { KnowledgeDocuments } from './documents.js';
import { KnowledgeFaqs } from './faqs.js';
import { KnowledgeActivity } from './activity.js';

export function KnowledgePage() {
  // Counts changes to documents and FAQs, so that a shown ranking is asked again.
  const [generation, setGeneration] = useState(0);
  const changed = () => setGeneration((count) => count + 1);
  return (
    <Page title="Knowledge">
      <div class="knowledge">
        <KnowledgeSearch generation={generation} />
        <KnowledgeActivity />
        <KnowledgeDocuments onChanged={changed} />
        <KnowledgeFaqs onChanged={changed} />
      </div>
    </Page>
  );
}
