// The clients of the legal cases, as their integrator's profiles: complete for their own country's files unless a
// case takes something away.

/** A persona física in Mexico City with everything the AVI needs. */
export const mexican = (extra: object = {}) => ({
  givenName: "Mario",
  paternalSurname: "López",
  maternalSurname: "Ruiz",
  birthdate: "1990-01-02",
  nationality: "MX",
  email: "mario@example.mx",
  address: { country: "MX", colonia: "Centro", street: "Madero", exteriorNumber: "5", postalCode: "06000" },
  mexico: {
    rfc: "LORM900102AB1",
    curp: "LORM900102HDFPZR01",
    actividadEconomica: 8250100,
    documentoIdentificacion: { tipoIdentificacion: 1, numeroIdentificacion: "IDMEX1234567" },
  },
  ...extra,
});

/** A client in Bogotá with the identification the UIAF's report needs. */
export const colombian = (extra: object = {}) => ({
  givenName: "Camila",
  paternalSurname: "Restrepo",
  maternalSurname: "Gómez",
  nationality: "CO",
  address: { country: "CO", city: "Bogotá" },
  colombia: {
    tipoIdentificacion: "13",
    numeroIdentificacion: "52123456",
    numeroCliente: "C-901",
    ciudadResidencia: "11001",
    fechaVinculacion: "2025-01-15",
    numeroWallet: "W-901",
  },
  ...extra,
});

export const salvadoran = () => ({
  givenName: "Óscar",
  paternalSurname: "Menjívar",
  nationality: "SV",
  address: { country: "SV" },
});

export const guatemalan = () => ({
  givenName: "Lucía",
  paternalSurname: "Xocop",
  nationality: "GT",
  address: { country: "GT" },
});
