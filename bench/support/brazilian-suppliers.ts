/**
 * Generated Brazilian suppliers for the search benchmarks: trade and corporate names drawn
 * with Zipf-like weights from common surnames, first names, cities, business types and
 * activities (a few very common words, a long tail), e-mails derived from the trade name,
 * mobile phones, valid distinct CNPJs. Deterministic: the same seed gives the same suppliers
 * (ids apart).
 */
import { randomUUID } from 'node:crypto';
import { normalizeText } from '../../lib/db/name-order';
import type { Supplier } from '../../lib/suppliers/model';
import { cnpjWithCheckDigits } from './documents';
import { prng } from './prng';

let random = prng(20261124);

/** A picker over `values` with Zipf-like weights (rank^-exponent): a few very common, a long tail. */
function zipf(values: readonly string[], exponent: number): () => string {
  const cumulative: number[] = [];
  let sum = 0;
  values.forEach((_, rank) => {
    sum += 1 / Math.pow(rank + 1, exponent);
    cumulative.push(sum);
  });
  return () => {
    const target = random() * sum;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((cumulative[middle] as number) < target) low = middle + 1;
      else high = middle;
    }
    return values[low] as string;
  };
}

const uniform = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;

/** By weight: [[value, weight], ...]. */
function weighted<T>(entries: readonly (readonly [T, number])[]): T {
  const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
  let target = random() * total;
  for (const [value, weight] of entries) {
    target -= weight;
    if (target < 0) return value;
  }
  return (entries[entries.length - 1] as readonly [T, number])[0];
}

export const SURNAMES = [
  'Silva',
  'Santos',
  'Oliveira',
  'Souza',
  'Rodrigues',
  'Ferreira',
  'Alves',
  'Pereira',
  'Lima',
  'Gomes',
  'Costa',
  'Ribeiro',
  'Martins',
  'Carvalho',
  'Almeida',
  'Lopes',
  'Soares',
  'Fernandes',
  'Vieira',
  'Barbosa',
  'Rocha',
  'Dias',
  'Nascimento',
  'Andrade',
  'Moreira',
  'Nunes',
  'Marques',
  'Machado',
  'Mendes',
  'Freitas',
  'Cardoso',
  'Ramos',
  'Gonçalves',
  'Santana',
  'Teixeira',
  'Araújo',
  'Pinto',
  'Correia',
  'Cavalcante',
  'Monteiro',
  'Moura',
  'Batista',
  'Campos',
  'Reis',
  'Azevedo',
  'Borges',
  'Castro',
  'Pires',
  'Miranda',
  'Farias',
  'Barros',
  'Duarte',
  'Medeiros',
  'Cunha',
  'Pinheiro',
  'Cruz',
  'Macedo',
  'Xavier',
  'Tavares',
  'Fonseca',
  'Guimarães',
  'Coelho',
  'Rezende',
  'Moraes',
  'Leite',
  'Sales',
  'Amaral',
  'Peixoto',
  'Brito',
  'Bezerra',
  'Matos',
  'Viana',
  'Sampaio',
  'Jesus',
  'Mota',
  'Prado',
  'Bastos',
  'Assis',
  'Lacerda',
  'Siqueira',
  'Queiroz',
  'Vasconcelos',
  'Magalhães',
  'Figueiredo',
  'Albuquerque',
  'Cavalcanti',
  'Brandão',
  'Bittencourt',
  'Wanderley',
  'Meireles',
  'Nogueira',
  'Serrano',
  'Quintela',
  'Zanetti',
  'Tognato',
  'Yamamoto',
  'Kowalski',
  'Hoffmann',
  'Schmidt',
  'Rossi',
  'Bianchi',
  'Esposito',
  'Fontana',
  'Galvão',
  'Junqueira',
  'Uchôa',
  'Valadares',
  'Vilela',
  'Werneck',
  'Zambelli',
];
const FIRST_NAMES = [
  'Maria',
  'José',
  'João',
  'Antônio',
  'Ana',
  'Francisco',
  'Carlos',
  'Paulo',
  'Pedro',
  'Lucas',
  'Luiz',
  'Marcos',
  'Luís',
  'Gabriel',
  'Rafael',
  'Francisca',
  'Daniel',
  'Marcelo',
  'Bruno',
  'Eduardo',
  'Felipe',
  'Raimundo',
  'Rodrigo',
  'Adriana',
  'Juliana',
  'Márcia',
  'Fernanda',
  'Patrícia',
  'Aline',
  'Sandra',
];
const CITIES = [
  'São Paulo',
  'Rio de Janeiro',
  'Belo Horizonte',
  'Curitiba',
  'Porto Alegre',
  'Salvador',
  'Recife',
  'Fortaleza',
  'Campinas',
  'Goiânia',
  'Manaus',
  'Belém',
  'Florianópolis',
  'Vitória',
  'Natal',
  'Londrina',
  'Ribeirão Preto',
  'Uberlândia',
  'Sorocaba',
  'Joinville',
  'Niterói',
  'Maringá',
  'Juiz de Fora',
  'Santo André',
  'São José dos Campos',
  'Osasco',
  'Cuiabá',
  'Teresina',
  'João Pessoa',
  'Maceió',
  'Aracaju',
  'Campo Grande',
  'Blumenau',
  'Caxias do Sul',
  'Piracicaba',
  'Bauru',
];
const TYPES = [
  'Distribuidora',
  'Comércio',
  'Atacado',
  'Atacadista',
  'Mercearia',
  'Supermercado',
  'Casa',
  'Depósito',
  'Armazém',
  'Empório',
  'Padaria',
  'Ferragens',
  'Materiais',
  'Indústria',
  'Importadora',
  'Transportadora',
  'Auto Peças',
  'Farmácia',
  'Papelaria',
  'Confecções',
  'Madeireira',
  'Laticínios',
  'Frigorífico',
  'Hortifruti',
  'Agropecuária',
  'Embalagens',
  'Metalúrgica',
  'Gráfica',
  'Tecidos',
  'Loja',
];
const ACTIVITIES = [
  'Alimentos',
  'Bebidas',
  'Ferragens',
  'Materiais de Construção',
  'Produtos de Limpeza',
  'Embalagens',
  'Tecidos',
  'Autopeças',
  'Eletrônicos',
  'Informática',
  'Cosméticos',
  'Móveis',
  'Papel',
  'Plásticos',
  'Químicos',
  'Hortifrutigranjeiros',
  'Carnes',
  'Laticínios',
  'Grãos',
  'Cereais',
  'Utilidades',
  'Calçados',
];
const AREA_CODES = [
  '11',
  '11',
  '11',
  '21',
  '21',
  '31',
  '41',
  '51',
  '61',
  '71',
  '81',
  '85',
  '19',
  '27',
  '47',
  '48',
  '62',
  '92',
  '91',
  '84',
  '16',
  '34',
  '15',
  '43',
];

const surname = zipf(SURNAMES, 1.05);
const firstName = zipf(FIRST_NAMES, 0.8);
const city = zipf(CITIES, 1);
const businessType = zipf(TYPES, 0.9);
const activity = zipf(ACTIVITIES, 0.8);

function tradeName(): string {
  return weighted<() => string>([
    [() => `${businessType()} ${surname()}`, 30],
    [() => `${businessType()} ${city()}`, 15],
    [() => `${surname()} ${activity()}`, 15],
    [() => `${businessType()} ${surname()} & ${surname()}`, 10],
    [() => `${firstName()} ${surname()} ${activity()}`, 10],
    [() => `${businessType()} de ${activity()} ${city()}`, 10],
    [() => `${surname()} ${businessType()}`, 10],
  ])();
}

function corporateName(trade: string): string {
  const middle = weighted([
    ['Comércio de', 25],
    ['Distribuição de', 10],
    ['Indústria e Comércio de', 10],
    ['Serviços e', 5],
    ['', 50],
  ] as const);
  const legalForm = weighted([
    ['Ltda', 60],
    ['ME', 14],
    ['EIRELI', 10],
    ['S.A.', 4],
    ['EPP', 6],
    ['', 6],
  ] as const);
  const owner = random() < 0.5 ? `${surname()} ` : '';
  return [owner + trade.replace(/ & .*/, ''), middle, middle === '' ? '' : activity(), legalForm].filter((part) => part !== '').join(' ');
}

function email(trade: string): string | null {
  if (random() < 0.05) return null;
  const local = weighted([
    ['contato', 70],
    ['vendas', 15],
    ['comercial', 8],
    ['financeiro', 7],
  ] as const);
  const words = normalizeText(trade)
    .replace(/[^a-z0-9 ]/g, '')
    .split(' ')
    .filter((word) => word !== '');
  const slug = (random() < 0.2 ? words.join('-') : words.join('')).slice(0, 30);
  return `${local}@${slug}.${random() < 0.85 ? 'com.br' : 'com'}`;
}

function phone(): string | null {
  if (random() < 0.1) return null;
  let digits = '9';
  for (let index = 0; index < 8; index += 1) digits += String(Math.floor(random() * 10));
  return `+55${uniform(AREA_CODES)}${digits}`;
}

/** A valid CNPJ, distinct per index (base digits a bijection of the index, check digits computed). */
export function cnpj(index: number): string {
  return cnpjWithCheckDigits(String((index * 7919 + 12_345_678) % 100_000_000).padStart(8, '0') + '0001');
}

export const formatCnpj = (digits: string): string =>
  `${digits.slice(0, 2)}.${digits.slice(2, 5)}.${digits.slice(5, 8)}/${digits.slice(8, 12)}-${digits.slice(12)}`;

/** `count` suppliers; `seed` restarts the generator (every run with the same seed draws the same data). */
export function generateSuppliers(count: number, seed = 20261124): Supplier[] {
  random = prng(seed);
  const now = new Date().toISOString();
  return Array.from({ length: count }, (_, index) => {
    const name = tradeName();
    return {
      id: randomUUID(),
      name,
      corporateName: corporateName(name),
      document: cnpj(index),
      email: email(name),
      phone: phone(),
      active: true,
      createdAt: now,
      updatedAt: now,
    };
  });
}
