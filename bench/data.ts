// Realistic Brazilian dealership data: people and company names (with accents), valid CPF/CNPJ,
// vehicles and prices. Everything comes from the seeded PRNG.
import { isValidCnpj, isValidCpf } from '../src/domain/shared/tax-id.js';
import type { Prng } from './prng.js';

export const MALE_NAMES = [
  'João',
  'José',
  'Antônio',
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
  'Daniel',
  'Marcelo',
  'Bruno',
  'Eduardo',
  'Felipe',
  'Raimundo',
  'Rodrigo',
  'Sérgio',
  'Márcio',
  'Fábio',
  'Vinícius',
  'Thiago',
  'André',
  'Otávio',
  'Caio',
  'Mateus',
  'Henrique',
  'Gustavo',
  'Leonardo',
  'Ícaro',
  'Cauã',
  'Davi',
  'Heitor',
  'Júlio',
  'Renato',
  'Vitor',
  'Wellington',
] as const;
export const FEMALE_NAMES = [
  'Maria',
  'Ana',
  'Francisca',
  'Antônia',
  'Adriana',
  'Juliana',
  'Márcia',
  'Fernanda',
  'Patrícia',
  'Aline',
  'Sandra',
  'Camila',
  'Amanda',
  'Bruna',
  'Jéssica',
  'Letícia',
  'Júlia',
  'Luciana',
  'Vanessa',
  'Mariana',
  'Gabriela',
  'Larissa',
  'Beatriz',
  'Conceição',
  'Cecília',
  'Lúcia',
  'Tânia',
  'Vitória',
  'Débora',
  'Flávia',
  'Helena',
  'Isabela',
  'Lívia',
  'Mônica',
  'Natália',
  'Priscila',
  'Raquel',
  'Simone',
  'Sônia',
  'Yasmin',
] as const;
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
  'Conceição',
  'Assunção',
  'Simões',
  'Magalhães',
  'Falcão',
  'Brandão',
  'Guimarães',
  'Conceição',
  'Adão',
  'Estêvão',
  'Damião',
  'Romão',
  'Sá',
  'Muniz',
] as const;
const CONNECTORS = ['', '', '', 'da ', 'de ', 'dos '] as const;

/** Unaccented fragments of accented names: the "search an unaccented name" scenario rotates over them. */
export const UNACCENTED_NAME_QUERIES = ['goncalves', 'conceicao', 'araujo', 'simoes', 'magalhaes', 'falcao', 'assuncao', 'antonio'] as const;

const COMPANY_HEADS = [
  'Auto Peças',
  'Transportadora',
  'Locadora',
  'Construtora',
  'Distribuidora',
  'Agropecuária',
  'Comercial',
  'Frigorífico',
  'Padaria',
  'Farmácia',
  'Imobiliária',
  'Logística',
  'Mecânica',
  'Laticínios',
  'Madeireira',
  'Cerâmica',
] as const;
const COMPANY_NAMES = [
  'São Jorge',
  'Boa Viagem',
  'Estrela do Sul',
  'Três Irmãos',
  'Nossa Senhora Aparecida',
  'Santa Luzia',
  'Vale Verde',
  'Ipê Amarelo',
  'União',
  'Paraná',
  'Amazônia',
  'Pantanal',
  'Horizonte',
  'Guarani',
  'Planalto',
  'Itaú do Sul',
  'Araucária',
  'Jequitibá',
  'Serra Gaúcha',
  'Maranhão',
] as const;
const COMPANY_TAILS = ['Ltda', 'Ltda', 'ME', 'EIRELI', 'S.A.', 'Comércio e Serviços Ltda'] as const;

export const CITIES: ReadonlyArray<readonly [string, string, string]> = [
  ['São Paulo', 'SP', '01'],
  ['Campinas', 'SP', '13'],
  ['Ribeirão Preto', 'SP', '14'],
  ['São José dos Campos', 'SP', '12'],
  ['Santos', 'SP', '11'],
  ['Rio de Janeiro', 'RJ', '20'],
  ['Niterói', 'RJ', '24'],
  ['Belo Horizonte', 'MG', '30'],
  ['Uberlândia', 'MG', '38'],
  ['Curitiba', 'PR', '80'],
  ['Londrina', 'PR', '86'],
  ['Maringá', 'PR', '87'],
  ['Porto Alegre', 'RS', '90'],
  ['Caxias do Sul', 'RS', '95'],
  ['Florianópolis', 'SC', '88'],
  ['Joinville', 'SC', '89'],
  ['Goiânia', 'GO', '74'],
  ['Brasília', 'DF', '70'],
  ['Salvador', 'BA', '40'],
  ['Recife', 'PE', '50'],
  ['Fortaleza', 'CE', '60'],
  ['São Luís', 'MA', '65'],
  ['Belém', 'PA', '66'],
  ['Manaus', 'AM', '69'],
  ['Cuiabá', 'MT', '78'],
  ['Vitória', 'ES', '29'],
];
const DDD: Record<string, string> = {
  SP: '11',
  RJ: '21',
  MG: '31',
  PR: '41',
  RS: '51',
  SC: '48',
  GO: '62',
  DF: '61',
  BA: '71',
  PE: '81',
  CE: '85',
  MA: '98',
  PA: '91',
  AM: '92',
  MT: '65',
  ES: '27',
};
const STREETS = [
  'Rua das Flores',
  'Avenida Brasil',
  'Rua Sete de Setembro',
  'Avenida Paulista',
  'Rua XV de Novembro',
  'Rua Dom Pedro II',
  'Avenida Getúlio Vargas',
  'Rua São João',
  'Travessa da Conceição',
  'Alameda Santos',
  'Rua Barão do Rio Branco',
  'Avenida Afonso Pena',
] as const;
const NEIGHBORHOODS = [
  'Centro',
  'Jardim América',
  'Vila Nova',
  'Boa Vista',
  'Santa Cecília',
  'Jardim Paulista',
  'Cidade Nova',
  'Bela Vista',
  'São Cristóvão',
  'Liberdade',
  'Água Verde',
  'Batel',
] as const;
const EMAIL_DOMAINS = ['gmail.com', 'hotmail.com', 'outlook.com', 'yahoo.com.br', 'uol.com.br', 'bol.com.br', 'terra.com.br'] as const;

/** [brand, model, versions, base price BRL] */
export const VEHICLES: ReadonlyArray<readonly [string, string, readonly string[], number]> = [
  ['Toyota', 'Corolla', ['GLi 2.0', 'XEi 2.0', 'Altis Hybrid'], 150_000],
  ['Toyota', 'Hilux', ['SR 2.8', 'SRV 2.8', 'SRX 2.8'], 260_000],
  ['Toyota', 'Yaris', ['XL 1.5', 'XS 1.5'], 100_000],
  ['Toyota', 'SW4', ['SRX Diamond'], 390_000],
  ['Honda', 'Civic', ['EXL', 'Touring'], 160_000],
  ['Honda', 'HR-V', ['EX', 'EXL', 'Touring'], 150_000],
  ['Honda', 'City', ['EX', 'EXL'], 115_000],
  ['Volkswagen', 'Gol', ['1.0 MPI', '1.6 MSI'], 65_000],
  ['Volkswagen', 'Polo', ['TSI', 'Highline', 'GTS'], 95_000],
  ['Volkswagen', 'T-Cross', ['Comfortline', 'Highline'], 140_000],
  ['Volkswagen', 'Nivus', ['Comfortline', 'Highline'], 125_000],
  ['Volkswagen', 'Amarok', ['Highline V6'], 300_000],
  ['Chevrolet', 'Onix', ['LT 1.0', 'Premier 1.0 Turbo'], 85_000],
  ['Chevrolet', 'Tracker', ['LT', 'Premier'], 135_000],
  ['Chevrolet', 'S10', ['LTZ 2.8', 'High Country'], 250_000],
  ['Chevrolet', 'Spin', ['Premier 7 lugares'], 110_000],
  ['Fiat', 'Strada', ['Freedom', 'Volcano', 'Ranch'], 105_000],
  ['Fiat', 'Toro', ['Endurance', 'Volcano', 'Ultra'], 160_000],
  ['Fiat', 'Argo', ['Drive 1.0', 'Trekking 1.3'], 80_000],
  ['Fiat', 'Mobi', ['Like', 'Trekking'], 65_000],
  ['Fiat', 'Pulse', ['Drive', 'Impetus', 'Abarth'], 115_000],
  ['Fiat', 'Fastback', ['Audace', 'Limited Edition'], 140_000],
  ['Jeep', 'Compass', ['Longitude', 'Limited', 'Série S'], 190_000],
  ['Jeep', 'Renegade', ['Sport', 'Longitude', 'Trailhawk'], 130_000],
  ['Jeep', 'Commander', ['Limited', 'Overland'], 250_000],
  ['Hyundai', 'HB20', ['Comfort', 'Platinum'], 85_000],
  ['Hyundai', 'Creta', ['Comfort', 'Limited', 'Ultimate'], 140_000],
  ['Renault', 'Kwid', ['Zen', 'Intense'], 65_000],
  ['Renault', 'Duster', ['Intense', 'Iconic'], 120_000],
  ['Renault', 'Oroch', ['Outsider'], 130_000],
  ['Nissan', 'Kicks', ['Sense', 'Advance', 'Exclusive'], 125_000],
  ['Nissan', 'Frontier', ['Attack', 'Platinum'], 270_000],
  ['Ford', 'Ranger', ['XLS', 'XLT', 'Limited'], 280_000],
  ['Ford', 'Territory', ['Titanium'], 210_000],
  ['Ford', 'Maverick', ['Lariat Hybrid'], 240_000],
  ['Peugeot', '208', ['Active', 'Allure', 'GT'], 90_000],
  ['Peugeot', '2008', ['Allure', 'GT'], 130_000],
  ['Citroën', 'C3', ['Live', 'Feel'], 80_000],
  ['BYD', 'Dolphin', ['Mini', 'GS'], 150_000],
  ['BYD', 'Song Plus', ['DM-i'], 230_000],
  ['Mitsubishi', 'L200 Triton', ['Sport HPE'], 250_000],
  ['BMW', 'X1', ['sDrive20i'], 300_000],
  ['Mercedes-Benz', 'GLA 200', ['Progressive'], 320_000],
  ['Audi', 'A3 Sedan', ['Performance'], 290_000],
];

/** The rare title word of the "search a word in 1% of titles" scenario. */
export const RARE_TITLE_WORD = 'Blindado';
export const RARE_TITLE_SHARE = 0.01;

const DEAL_DESCRIPTIONS = [
  'Cliente interessado em financiamento em 48x com entrada de 30%.',
  'Quer dar o carro atual como parte do pagamento; avaliar na loja.',
  'Veio pelo WhatsApp, pediu test drive no sábado de manhã.',
  'Comparando com a concorrência; sensível a preço.',
  'Pagamento à vista, pede desconto e revisão grátis.',
  'Frota da empresa: interesse em três unidades.',
  'Retorno combinado para a próxima semana; enviar proposta por e-mail.',
  'Aguardando aprovação do crédito no banco.',
  'Cliente antigo da loja, já comprou dois veículos conosco.',
  'Pediu cotação de seguro e emplacamento junto.',
] as const;
export const LOSS_REASONS = [
  'Cliente comprou em outra loja',
  'Crédito reprovado',
  'Desistiu da compra',
  'Preço acima do orçamento',
  'Sem retorno do cliente',
] as const;
export const DEAL_SOURCES = ['site', 'whatsapp', 'indicacao', 'portal', 'loja', 'instagram', 'telefone'] as const;
export const STORES = ['loja-centro', 'loja-zona-sul', 'loja-shopping', 'loja-rodovia', 'seminovos'] as const;
const DEAL_TAGS = ['sedan', 'suv', 'picape', 'hatch', 'financiamento', 'troca', 'frota', 'primeiro-carro', 'urgente', 'seminovo', '0km'] as const;
const CLIENT_TAGS = ['vip', 'frota', 'recorrente', 'indicação', 'whatsapp', 'aniversário', 'pós-venda'] as const;
const MARITAL = ['solteiro(a)', 'casado(a)', 'divorciado(a)', 'viúvo(a)', 'união estável'] as const;

function digitsOf(prng: Prng, n: number): number[] {
  return Array.from({ length: n }, () => prng.int(0, 9));
}

function mod11(values: readonly number[], weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i]! * weights[i]!;
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

/** A valid CPF, bare (11 digits). */
export function cpf(prng: Prng): string {
  for (;;) {
    const d = digitsOf(prng, 9);
    if (d.every((x) => x === d[0])) continue;
    const d1 = mod11(d, [10, 9, 8, 7, 6, 5, 4, 3, 2]);
    const d2 = mod11([...d, d1], [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
    const out = [...d, d1, d2].join('');
    if (!isValidCpf(out)) throw new Error(`generated an invalid CPF ${out}`);
    return out;
  }
}

export const formatCpf = (c: string) => `${c.slice(0, 3)}.${c.slice(3, 6)}.${c.slice(6, 9)}-${c.slice(9)}`;
export const formatCnpj = (c: string) => `${c.slice(0, 2)}.${c.slice(2, 5)}.${c.slice(5, 8)}/${c.slice(8, 12)}-${c.slice(12)}`;

const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** A valid CNPJ, bare: numeric (headquarters 0001 or a branch) or, when asked, alphanumeric (IN RFB 2.229/2024). */
export function cnpj(prng: Prng, alphanumeric: boolean): string {
  for (;;) {
    let base: string;
    if (alphanumeric) {
      base = Array.from({ length: 12 }, () => ALNUM[prng.int(0, 35)]).join('');
      if (!/[A-Z]/.test(base)) continue;
    } else {
      base = digitsOf(prng, 8).join('') + (prng.chance(0.8) ? '0001' : `000${prng.int(2, 9)}`);
    }
    const values = [...base].map((c) => c.charCodeAt(0) - 48);
    const d1 = mod11(values, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
    const d2 = mod11([...values, d1], [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
    const out = `${base}${d1}${d2}`;
    if (/^(.)\1*$/.test(out)) continue;
    if (!isValidCnpj(out)) throw new Error(`generated an invalid CNPJ ${out}`);
    return out;
  }
}

export function personName(prng: Prng): { name: string; gender: 'masculino' | 'feminino'; first: string } {
  const gender = prng.chance(0.5) ? 'masculino' : 'feminino';
  const first = prng.pick(gender === 'masculino' ? MALE_NAMES : FEMALE_NAMES);
  const middle = prng.chance(0.35) ? ` ${prng.pick(gender === 'masculino' ? MALE_NAMES : FEMALE_NAMES)}` : '';
  const s1 = prng.pick(SURNAMES);
  let s2 = prng.pick(SURNAMES);
  if (s2 === s1) s2 = 'Silva';
  const surnames = prng.chance(0.6) ? `${prng.pick(CONNECTORS)}${s1} ${s2}` : `${prng.pick(CONNECTORS)}${s1}`;
  return { name: `${first}${middle} ${surnames}`.replace(/\s+/g, ' '), gender, first };
}

export function companyName(prng: Prng): { trade: string; legal: string } {
  const trade = `${prng.pick(COMPANY_HEADS)} ${prng.pick(COMPANY_NAMES)}`;
  return { trade, legal: `${trade} ${prng.pick(COMPANY_TAILS)}` };
}

const ascii = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

export function emailFor(name: string, prng: Prng): string {
  const parts = ascii(name)
    .replace(/[^a-z ]/g, '')
    .split(' ')
    .filter((p) => p.length > 2);
  const local = `${parts[0] ?? 'cliente'}.${parts[parts.length - 1] ?? 'x'}${prng.chance(0.5) ? prng.int(1, 999) : ''}`;
  return `${local}@${prng.pick(EMAIL_DOMAINS)}`;
}

export function address(prng: Prng): {
  street: string;
  number: string;
  complement: string | null;
  neighborhood: string;
  city: string;
  state: string;
  zip_code: string;
  country: string;
} {
  const [city, state, zipPrefix] = prng.pick(CITIES);
  return {
    street: prng.pick(STREETS),
    number: String(prng.int(1, 4999)),
    complement: prng.chance(0.3) ? `Apto ${prng.int(11, 2204)}` : null,
    neighborhood: prng.pick(NEIGHBORHOODS),
    city,
    state,
    zip_code: `${zipPrefix}${prng.int(100, 999)}-${String(prng.int(0, 999)).padStart(3, '0')}`,
    country: 'Brasil',
  };
}

export const landline = (prng: Prng, state: string) => `(${DDD[state] ?? '11'}) ${prng.int(2000, 5999)}-${String(prng.int(0, 9999)).padStart(4, '0')}`;
export const mobile = (prng: Prng, state: string) => `(${DDD[state] ?? '11'}) 9${prng.int(6000, 9999)}-${String(prng.int(0, 9999)).padStart(4, '0')}`;

export function birthDate(prng: Prng): string {
  const y = prng.int(1950, 2005);
  const m = prng.int(1, 12);
  const d = prng.int(1, 28);
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

export const maritalStatus = (prng: Prng) => prng.pick(MARITAL);
export const rg = (prng: Prng) => `${prng.int(10, 59)}.${prng.int(100, 999)}.${prng.int(100, 999)}-${prng.int(0, 9)}`;
export const clientTags = (prng: Prng): string[] =>
  prng.chance(0.6) ? [] : [...new Set([prng.pick(CLIENT_TAGS), ...(prng.chance(0.3) ? [prng.pick(CLIENT_TAGS)] : [])])];
export const dealTags = (prng: Prng): string[] =>
  prng.chance(0.3) ? [] : [...new Set([prng.pick(DEAL_TAGS), ...(prng.chance(0.4) ? [prng.pick(DEAL_TAGS)] : [])])];

/** A deal title like `Toyota Corolla XEi 2.0 2024`; ~1% carry the rare word. Returns the vehicle's base price too. */
export function vehicleTitle(prng: Prng): { title: string; basePrice: number; model: string } {
  const [brand, model, versions, price] = prng.pick(VEHICLES);
  const year = prng.int(2014, 2027);
  const rare = prng.chance(RARE_TITLE_SHARE) ? ` ${RARE_TITLE_WORD}` : '';
  const zeroKm = year >= 2026 && prng.chance(0.5) ? ' 0km' : '';
  const age = Math.max(0, 2026 - year);
  return { title: `${brand} ${model} ${prng.pick(versions)} ${year}${zeroKm}${rare}`, basePrice: price * Math.pow(0.9, age) * (rare ? 1.4 : 1), model };
}

export const dealDescription = (prng: Prng): string | null => (prng.chance(0.4) ? prng.pick(DEAL_DESCRIPTIONS) : null);

/** A price in cents near the base: whole reais ending in 0 or 90 (car-dealer style). */
export function priceCents(prng: Prng, base: number): number {
  const reais = Math.round((base * (0.85 + prng.next() * 0.3)) / 10) * 10 - (prng.chance(0.4) ? 10 : 0);
  const cents = prng.chance(0.3) ? 90 : 0;
  return Math.max(5000, reais) * 100 + cents;
}
