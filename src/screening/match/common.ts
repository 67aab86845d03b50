// The given names and surnames most frequent among the people a Latin American payment provider screens, which
// the matcher weighs as little evidence whatever the list being searched says. The inverse document frequency of a
// token over a sanctions list (a few thousand names) says little about how common it is among clients: "GUZMAN"
// appears a dozen times on OFAC's list yet is one of Mexico's most frequent surnames. On a large index (millions of
// PEPs) the IDF alone would learn this; on a small list this prior stands in for it.
//
// The names are the top of Mexico's and Spain's frequency rankings as commonly reported (INEGI/RENAPO name counts,
// INE's "apellidos más frecuentes"), plus the most frequent Arabic given names on the lists (already folded by
// normaliseName into one spelling). It is a list of membership, not of frequencies: order does not matter.

/** Surnames (already normalised: lower case, no accents). */
const SURNAMES = `hernandez garcia martinez lopez gonzalez perez rodriguez sanchez ramirez cruz flores gomez morales
vazquez reyes jimenez torres diaz gutierrez ruiz mendoza aguilar ortiz moreno castillo romero alvarez mendez chavez
rivera juarez ramos dominguez herrera medina castro vargas guzman velazquez munoz rojas contreras salazar luna
ortega santiago guerrero estrada bautista cortes soto alvarado espinoza lara avila rios silva delgado fernandez
suarez navarro molina`;

/** Given names, and the components of compound ones (María José, José Luis, Juan Carlos). */
const GIVEN_NAMES = `jose juan maria luis carlos jesus antonio francisco miguel angel alejandro jorge pedro manuel
ricardo fernando javier roberto daniel eduardo rafael sergio martin mario arturo alberto raul enrique guadalupe victor
hector oscar andres ruben ramon gerardo alfredo hugo pablo gabriel guillermo ana rosa laura patricia elizabeth
gabriela leticia alejandra adriana margarita silvia veronica claudia teresa carmen martha sandra monica juana lucia
isabel fernanda daniela sofia diana carolina andrea paola josefina beatriz elena luz
muhammad ahmad ali hasan husayn abd abdallah umar ibrahim yusuf mahmud khalid mustafa`;

export const COMMON_NAME_TOKENS: ReadonlySet<string> = new Set(
  `${SURNAMES} ${GIVEN_NAMES}`.split(/\s+/).filter(Boolean),
);
