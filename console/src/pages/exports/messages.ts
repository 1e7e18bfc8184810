import { defineMessages } from '../../i18n/messages';

/** The spreadsheet export: the form and the state of a job. */
export const exportMessages = defineMessages({
  'pt-BR': {
    title: 'Exportar planilha',
    intro:
      'Gere um arquivo CSV que o Excel abre como está: fornecedores, produtos com o saldo de cada depósito, as movimentações de estoque ou a auditoria de um período.',
    formTitle: 'O que exportar',
    kind: 'Dados',
    kindNames: (kind: string) =>
      ({ suppliers: 'Fornecedores', products: 'Produtos e saldos', 'stock-history': 'Movimentações de estoque', audit: 'Auditoria' })[kind] ?? kind,
    kindHint: (kind: string): string =>
      ({
        suppliers: 'Todos os fornecedores, com as colunas que a importação lê: dá para importar o arquivo de volta.',
        products: 'Um produto por linha, com o saldo total e uma coluna por depósito.',
        'stock-history': 'As movimentações do período, da mais recente à mais antiga.',
        audit: 'Os registros de auditoria do período. Só administradores da empresa podem exportar.',
      })[kind] ?? '',
    from: 'De',
    to: 'Até',
    periodHint: 'Até 366 dias, contando o último.',
    submit: 'Exportar',
    submitting: 'Iniciando…',
    jobTitle: (kind: string) => `Exportação: ${kind}`,
    status: 'Situação',
    statusNames: (status: string) => ({ queued: 'Na fila', running: 'Gerando o arquivo', done: 'Pronta', failed: 'Falhou' })[status] ?? status,
    rows: (rows: string) => `${rows} linhas`,
    failed: 'A exportação falhou.',
    download: (fileName: string) => `Baixar ${fileName}`,
    linkExpires: (time: string) => `O link vale até ${time}; depois, esta página gera outro.`,
  },
  en: {
    title: 'Export a spreadsheet',
    intro:
      'Make a CSV file that Excel opens as it is: suppliers, products with the balance in each warehouse, the stock movements or the audit trail of a period.',
    formTitle: 'What to export',
    kind: 'Data',
    kindNames: (kind: string) =>
      ({ suppliers: 'Suppliers', products: 'Products and balances', 'stock-history': 'Stock movements', audit: 'Audit trail' })[kind] ?? kind,
    kindHint: (kind: string): string =>
      ({
        suppliers: 'Every supplier, with the columns the import reads: the file can be imported back.',
        products: 'One product a row, with its total balance and one column per warehouse.',
        'stock-history': "The period's movements, newest first.",
        audit: "The period's audit entries. Only the company's administrators may export them.",
      })[kind] ?? '',
    from: 'From',
    to: 'To',
    periodHint: 'Up to 366 days, the last one included.',
    submit: 'Export',
    submitting: 'Starting…',
    jobTitle: (kind: string) => `Export: ${kind}`,
    status: 'Status',
    statusNames: (status: string) => ({ queued: 'Queued', running: 'Writing the file', done: 'Ready', failed: 'Failed' })[status] ?? status,
    rows: (rows: string) => `${rows} rows`,
    failed: 'The export failed.',
    download: (fileName: string) => `Download ${fileName}`,
    linkExpires: (time: string) => `The link is valid until ${time}; after that, this page makes another.`,
  },
});
