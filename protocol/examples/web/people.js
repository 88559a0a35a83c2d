// The big list's 100,000 people, the same for the server and the tests (ASCII names, ids n0…).
const FIRST = ['Ava', 'Liam', 'Olivia', 'Noah', 'Emma', 'Oliver', 'Amelia', 'Elijah', 'Sophia', 'Lucas', 'Mia', 'Mason',
  'Isla', 'Ethan', 'Grace', 'Jack', 'Ruby', 'Leo', 'Chloe', 'James', 'Stella', 'Henry', 'Zoe', 'Theo', 'Ella', 'Felix',
  'Nora', 'Hugo', 'Lily', 'Oscar', 'Maya', 'Arthur', 'Ivy', 'Max', 'Alice', 'Samuel', 'Hazel', 'Owen', 'Clara', 'Adam'];
const LAST = ['Smith', 'Jones', 'Taylor', 'Brown', 'Williams', 'Wilson', 'Johnson', 'Davies', 'Robinson', 'Wright',
  'Thompson', 'Evans', 'Walker', 'White', 'Roberts', 'Green', 'Hall', 'Wood', 'Jackson', 'Clarke', 'Patel', 'Khan',
  'Lewis', 'James', 'Phillips', 'Mason', 'Mitchell', 'Rose', 'Davis', 'Rodriguez', 'Cox', 'Alexander', 'Garcia',
  'Kelly', 'Baker', 'Turner', 'Moore', 'Scott', 'King', 'Young', 'Hill', 'Ward', 'Morris', 'Cooper', 'Bell', 'Grace'];

export const BIG_COUNT = 100_000;

/** Person k: a first and a last name, and a number so every row reads differently. */
export function bigPerson(k) {
  const first = FIRST[k % FIRST.length];
  const last = LAST[Math.floor(k / FIRST.length) % LAST.length];
  return { id: `n${k}`, content: { text: `${first} ${last} ${k + 1}` } };
}

export const bigPeople = (n = BIG_COUNT) => Array.from({ length: n }, (_, k) => bigPerson(k));
