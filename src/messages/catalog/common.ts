// Words every screen and the API share: the levels of risk, the states of an alert, the generic errors.
import { defineMessages } from "../define.ts";

export const common = defineMessages({
  en: {
    "level.minimal": "Minimal",
    "level.low": "Low",
    "level.medium": "Medium",
    "level.high": "High",
    "level.critical": "Critical",
    "error.invalid_request": "The request is not valid: {message}",
    "error.unauthorized": "Sign in again: your session has ended or the key is not valid.",
    "error.forbidden": "Your role ({role}) may not do this; ask an administrator of the project.",
    "error.not_found": "Not found.",
    "error.conflict": "This changed meanwhile: reload and try again.",
    "error.rate_limited":
      "Too many attempts: wait {seconds, plural, one {# second} other {# seconds}} and try again.",
    "error.unavailable": "The service is busy: try again in a moment.",
    "error.internal_error": "Something failed on our side; it has been logged.",
    "error.network": "The service cannot be reached: check the connection.",
  },
  es: {
    "level.minimal": "Mínimo",
    "level.low": "Bajo",
    "level.medium": "Medio",
    "level.high": "Alto",
    "level.critical": "Crítico",
    "error.invalid_request": "La solicitud no es válida: {message}",
    "error.unauthorized": "Vuelva a iniciar sesión: su sesión terminó o la clave no es válida.",
    "error.forbidden": "Su rol ({role}) no permite esta acción; pídala a un administrador del proyecto.",
    "error.not_found": "No se encontró.",
    "error.conflict": "Esto cambió mientras tanto: recargue e intente de nuevo.",
    "error.rate_limited":
      "Demasiados intentos: espere {seconds, plural, one {# segundo} other {# segundos}} e intente de nuevo.",
    "error.unavailable": "El servicio está ocupado: intente de nuevo en un momento.",
    "error.internal_error": "Algo falló de nuestro lado; quedó registrado.",
    "error.network": "No se puede contactar al servicio: revise la conexión.",
  },
});
